package io.trainyard.gateway.db;

import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.config.ConfigRegistry;
import org.jdbi.v3.core.statement.DefinedAttributeTemplateEngine;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.TemplateEngine;

/**
 * Jdbi's default template engine ({@code <name>} attributes) with Dropwizard's {@code /*
 * Type.method *}{@code /} prefix for SQL-object statements, as {@code JdbiFactory} sets up, but
 * parsed once per SQL text: Dropwizard's {@code NamePrependingTemplateEngine} is not a {@link
 * TemplateEngine.Parsing}, so Jdbi's template cache could not hold it and every statement was lexed
 * again (ANTLR) on every execution — about 5% of the CPU of an authenticated job read in issue 19's
 * profile.
 */
public final class ParsedTemplates implements TemplateEngine.Parsing {
  private final DefinedAttributeTemplateEngine attributes = new DefinedAttributeTemplateEngine();

  @Override
  public Optional<Function<StatementContext, String>> parse(
      String template, ConfigRegistry config) {
    return attributes.parse(template, config).map(ParsedTemplates::named);
  }

  private static Function<StatementContext, String> named(Function<StatementContext, String> sql) {
    return context -> {
      var rendered = sql.apply(context);
      var method = context.getExtensionMethod();
      if (method == null) {
        return rendered;
      }
      var out = new StringBuilder(rendered.length() + 100).append("/* ");
      var type = method.getType().getSimpleName();
      if (!type.isEmpty()) {
        out.append(type).append('.');
      }
      return out.append(method.getMethod().getName()).append(" */ ").append(rendered).toString();
    };
  }
}
