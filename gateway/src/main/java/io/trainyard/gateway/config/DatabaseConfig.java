package io.trainyard.gateway.config;

import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.util.Duration;
import io.trainyard.gateway.db.EmbeddedH2;
import jakarta.validation.constraints.Min;
import java.nio.file.Path;

/**
 * Where jobs are kept: PostgreSQL in production, an embedded H2 file in the data directory when no
 * URL is set. The driver follows from the URL, so a deployment names only url, user and password.
 */
public class DatabaseConfig {
  private String url;
  private String user = "trainyard";
  private String password = "";

  @Min(2)
  private int maxPoolSize = 16;

  /**
   * Commit concurrent job submissions together, one transaction per batch (README "Group commit");
   * off, each submission commits alone.
   */
  private boolean groupCommit = true;

  public String getUrl() {
    return url;
  }

  public void setUrl(String url) {
    this.url = url;
  }

  public String getUser() {
    return user;
  }

  public void setUser(String user) {
    this.user = user;
  }

  public String getPassword() {
    return password;
  }

  public void setPassword(String password) {
    this.password = password;
  }

  public int getMaxPoolSize() {
    return maxPoolSize;
  }

  public void setMaxPoolSize(int maxPoolSize) {
    this.maxPoolSize = maxPoolSize;
  }

  public boolean isGroupCommit() {
    return groupCommit;
  }

  public void setGroupCommit(boolean groupCommit) {
    this.groupCommit = groupCommit;
  }

  public boolean isPostgres() {
    return url != null && url.startsWith("jdbc:postgresql:");
  }

  /** Dropwizard's pooled data source for this database; the embedded H2 when no URL is set. */
  public DataSourceFactory toDataSourceFactory(Path dataDir) {
    if (url == null || url.isBlank()) {
      return EmbeddedH2.dataSourceFactory(dataDir);
    }
    var f = new DataSourceFactory();
    if (isPostgres()) {
      f.setDriverClass("org.postgresql.Driver");
    } else if (url.startsWith("jdbc:h2:")) {
      f.setDriverClass("org.h2.Driver");
    } else {
      throw new IllegalArgumentException(
          "database.url must be a jdbc:postgresql: or jdbc:h2: URL, not " + url);
    }
    f.setUrl(url);
    f.setUser(user);
    f.setPassword(password);
    f.setMaxSize(maxPoolSize);
    f.setMinSize(Math.min(2, maxPoolSize));
    f.setInitialSize(Math.min(2, maxPoolSize));
    f.setValidationQuery("SELECT 1");
    // After a database restart or failover every pooled connection is dead; checked on borrow
    // (at most once a second each), they are replaced instead of failing requests one by one, so
    // the service resumes by itself as soon as the database is back.
    f.setCheckConnectionOnBorrow(true);
    f.setValidationInterval(Duration.seconds(1));
    if (!isPostgres()) {
      EmbeddedH2.tune(f);
    }
    return f;
  }
}
