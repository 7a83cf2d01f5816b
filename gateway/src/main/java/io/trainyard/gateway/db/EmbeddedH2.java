package io.trainyard.gateway.db;

import io.dropwizard.db.DataSourceFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The zero-config database: an H2 file in the data directory ({@code ./data/trainyard.mv.db} by
 * default).
 *
 * <p>Plain H2, not {@code MODE=PostgreSQL}: the store's SQL is the part H2 and PostgreSQL share,
 * and every statement runs on both in the tests, so a compatibility mode would add nothing but a
 * third dialect (H2's partial imitation of PostgreSQL) that the tests would not cover.
 */
public final class EmbeddedH2 {
  public static final Path DEFAULT_DATA_DIRECTORY = Path.of("data");

  /** {@link #tune}'s settings. */
  private static final Map<String, String> TUNING =
      Map.of("QUERY_CACHE_SIZE", "64", "MAX_LENGTH_INPLACE_LOB", "65536");

  private EmbeddedH2() {}

  /**
   * The JDBC URL of the database in {@code dataDirectory}. {@code DB_CLOSE_ON_EXIT=FALSE}: the
   * gateway's lifecycle closes the pool after the reconciler stops; H2's own shutdown hook would
   * close the database under it first. No {@code AUTO_SERVER}: a second gateway on the same
   * directory must fail on H2's file lock, not share it. H2's settings for the gateway's workload
   * are {@link #tune}'s.
   */
  public static String url(Path dataDirectory) {
    return "jdbc:h2:file:"
        + dataDirectory.resolve("trainyard").toAbsolutePath()
        + ";DB_CLOSE_ON_EXIT=FALSE";
  }

  /**
   * H2's settings for the gateway's workload, on any H2 database it uses (the embedded one or a
   * {@code jdbc:h2:} URL), each unless the URL sets it:
   *
   * <ul>
   *   <li>{@code QUERY_CACHE_SIZE=64}: H2 keeps each connection's parsed statements, 8 by default,
   *       fewer than a submission's transaction runs, so every statement was parsed again each time
   *       (7% of a submission's commit).
   *   <li>{@code MAX_LENGTH_INPLACE_LOB=65536}: the JSON and text columns ({@code TEXT}, a CLOB in
   *       H2) hold a few hundred to a few thousand characters, over H2's default of 256 for keeping
   *       a LOB in its row; kept apart, each write made a temporary LOB and woke H2's LOB cleaner
   *       thread, and each read went to the LOB map (docs/benchmarks.md, session 13). Larger values
   *       are still kept apart. The setting is the database's: it applies to what is written from
   *       then on.
   * </ul>
   */
  public static void tune(DataSourceFactory factory) {
    var url = factory.getUrl().toUpperCase(Locale.ROOT);
    var properties = new LinkedHashMap<>(factory.getProperties());
    for (var setting : TUNING.entrySet()) {
      // H2 refuses a setting given both in the URL and as a connection property.
      if (!url.contains(";" + setting.getKey() + "=")) {
        properties.put(setting.getKey(), setting.getValue());
      }
    }
    factory.setProperties(properties);
  }

  /** What {@code database:} means when the configuration does not say. */
  public static DataSourceFactory dataSourceFactory(Path dataDirectory) {
    var factory = new DataSourceFactory();
    factory.setDriverClass("org.h2.Driver");
    factory.setUrl(url(dataDirectory));
    factory.setUser("sa");
    factory.setPassword("");
    // One process owns the file; a handful of connections serve the API and the reconciler.
    factory.setInitialSize(2);
    factory.setMinSize(2);
    factory.setMaxSize(16);
    tune(factory);
    return factory;
  }
}
