package io.trainyard.spi;

import io.opentelemetry.api.OpenTelemetry;
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
 * @param openTelemetry where the backend's client spans go (AWS SDK, fabric8, gRPC calls), as
 *     children of the gateway's span that is current when the backend is called; a no-op instance
 *     when tracing is off. Backends use the OpenTelemetry API only: the SDK and exporter are the
 *     gateway's.
 */
public record BackendContext(
    InstanceShapes shapes,
    Path dataDir,
    Clock clock,
    boolean devMode,
    Path gatewayDataDir,
    OpenTelemetry openTelemetry) {
  public BackendContext {
    Objects.requireNonNull(shapes, "shapes");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(gatewayDataDir, "gatewayDataDir");
    Objects.requireNonNull(openTelemetry, "openTelemetry");
  }

  /** A context without tracing (a no-op {@link OpenTelemetry}). */
  public BackendContext(
      InstanceShapes shapes, Path dataDir, Clock clock, boolean devMode, Path gatewayDataDir) {
    this(shapes, dataDir, clock, devMode, gatewayDataDir, OpenTelemetry.noop());
  }

  /** A context outside dev mode whose backend keeps its state in {@code dataDir} alone. */
  public BackendContext(InstanceShapes shapes, Path dataDir, Clock clock) {
    this(shapes, dataDir, clock, false, dataDir);
  }
}
