package io.trainyard.gateway.testing;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test class a fresh database (a {@link TestDatabase} parameter) on a PostgreSQL 15
 * server started from the Debian binaries once per JVM and stopped when the run ends.
 *
 * <p>Set {@code -Dtrainyard.pg.bin=DIR} to use binaries other than {@code
 * /usr/lib/postgresql/15/bin}.
 */
public final class PostgresExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(PostgresExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    // The root store outlives every test class; JUnit closes its AutoCloseable values at the end.
    var server =
        context
            .getRoot()
            .getStore(NS)
            .getOrComputeIfAbsent(
                PostgresServer.class,
                k -> PostgresServer.start(PostgresServer.binDirectory()),
                PostgresServer.class);
    context.getStore(NS).put(TestDatabase.class, server.createDatabase());
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
