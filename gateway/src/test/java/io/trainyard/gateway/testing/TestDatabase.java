package io.trainyard.gateway.testing;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;

/**
 * A fresh, empty database for one test class, on H2 or PostgreSQL, reached through the same pooled
 * {@link DataSource} the gateway builds from its {@code database:} configuration. Closed (pool
 * stopped) when the test class ends.
 */
public final class TestDatabase implements AutoCloseable {
  private final String kind;
  private final String url;
  private final String user;
  private final ManagedDataSource dataSource;
  private final Jdbi jdbi;

  TestDatabase(String kind, String driverClass, String url, String user) {
    this.kind = kind;
    this.url = url;
    this.user = user;
    var factory = new DataSourceFactory();
    factory.setDriverClass(driverClass);
    factory.setUrl(url);
    factory.setUser(user);
    factory.setPassword("");
    // Enough for the concurrency tests (8 writers), small enough for a 2-core machine.
    factory.setInitialSize(1);
    factory.setMinSize(1);
    factory.setMaxSize(12);
    this.dataSource = factory.build(new MetricRegistry(), kind);
    this.jdbi = Jdbi.create(dataSource);
  }

  /** {@code h2} or {@code postgresql}. */
  public String kind() {
    return kind;
  }

  public String url() {
    return url;
  }

  /** The user to connect as, e.g. for a second pool standing for another gateway replica. */
  public String user() {
    return user;
  }

  public DataSource dataSource() {
    return dataSource;
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  @Override
  public void close() {
    try {
      dataSource.stop();
    } catch (Exception e) {
      throw new IllegalStateException("could not close the pool of " + url, e);
    }
  }

  @Override
  public String toString() {
    return kind;
  }
}
