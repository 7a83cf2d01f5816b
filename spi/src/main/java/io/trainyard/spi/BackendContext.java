package io.trainyard.spi;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * What the gateway hands every backend it creates.
 *
 * @param shapes instance shapes (vCPUs, memory, GPUs) from the price catalog
 * @param dataDir a directory the backend may keep state in, e.g. {@code ./data/backends/<id>}
 * @param clock the clock to read time from (tests move it)
 * @param devMode whether the gateway runs in dev mode (its own token issuer, one machine): a
 *     backend that cannot isolate jobs from the gateway may run only then
 * @param gatewayDataDir the gateway's whole data directory (keys, database, secrets), which no job
 *     may see
 */
public record BackendContext(
    InstanceShapes shapes, Path dataDir, Clock clock, boolean devMode, Path gatewayDataDir) {
  public BackendContext {
    Objects.requireNonNull(shapes, "shapes");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(gatewayDataDir, "gatewayDataDir");
  }

  /** A context outside dev mode whose backend keeps its state in {@code dataDir} alone. */
  public BackendContext(InstanceShapes shapes, Path dataDir, Clock clock) {
    this(shapes, dataDir, clock, false, dataDir);
  }
}
