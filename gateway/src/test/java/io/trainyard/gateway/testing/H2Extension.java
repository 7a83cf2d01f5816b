package io.trainyard.gateway.testing;

import java.util.UUID;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test class a fresh in-memory H2 database (a {@link TestDatabase} parameter), the
 * counterpart of {@link PostgresExtension}. Plain H2 mode, as the gateway runs it.
 */
public final class H2Extension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(H2Extension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    // DB_CLOSE_DELAY=-1: the database lives while the JVM does, not while a connection is open.
    var url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    context
        .getStore(NS)
        .put(TestDatabase.class, new TestDatabase("h2", "org.h2.Driver", url, "sa"));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestDatabase.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NS).get(TestDatabase.class, TestDatabase.class);
  }
}
