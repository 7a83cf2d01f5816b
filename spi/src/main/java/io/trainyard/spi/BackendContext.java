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
 */
public record BackendContext(InstanceShapes shapes, Path dataDir, Clock clock) {
  public BackendContext {
    Objects.requireNonNull(shapes, "shapes");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(clock, "clock");
  }
}
