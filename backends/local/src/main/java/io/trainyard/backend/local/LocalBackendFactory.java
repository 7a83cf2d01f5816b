package io.trainyard.backend.local;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;

/** Creates {@code type: local} backends; registered for {@link java.util.ServiceLoader}. */
public final class LocalBackendFactory implements BackendFactory<LocalConfig> {
  public static final String KIND = "local";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<LocalConfig> configClass() {
    return LocalConfig.class;
  }

  /** Opens the backend, which re-attaches to attempts a previous gateway left running. */
  @Override
  public TrainingBackend create(LocalConfig config, BackendContext context) {
    return LocalBackend.open(config, context);
  }
}
