package io.trainyard.bench.submit;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;

/**
 * A backend plugin that accepts every job at once and reports it finished, so that a benchmark
 * measures the gateway and its database, not a backend. Found by the gateway's ServiceLoader when
 * its jar ({@link StubPluginJar}) is on the gateway's classpath. Never shipped.
 */
public final class StubBackendFactory implements BackendFactory<StubConfig> {
  public static final String KIND = "bench-stub";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<StubConfig> configClass() {
    return StubConfig.class;
  }

  @Override
  public TrainingBackend create(StubConfig config, BackendContext context) {
    return new StubBackend(config, context.clock());
  }
}
