package io.trainyard.spi;

/**
 * Creates backends of one kind. Found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/io.trainyard.spi.BackendFactory} file in the backend's module), keyed by {@link
 * #kind()}, which is also the {@code type:} of the backend's configuration block. Adding a backend
 * is adding a module, never editing a switch.
 *
 * @param <C> the backend's own configuration class
 */
public interface BackendFactory<C extends BackendConfig> {

  /** The {@code type:} of this backend's configuration blocks. */
  String kind();

  /** The Jackson-bound configuration class of one block. */
  Class<C> configClass();

  /**
   * Builds a backend from its configuration block.
   *
   * @throws IllegalArgumentException the block is invalid; the message names the field
   */
  TrainingBackend create(C config, BackendContext context);
}
