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
   * @throws IllegalArgumentException the block is invalid; the message names the field. The gateway
   *     does not start.
   * @throws BackendException.Retryable the backend cannot be reached now (an outage, a 5xx, a
   *     cluster that is not running): the gateway starts without it, shows it unhealthy with this
   *     message and calls {@code create} again in the background
   * @throws BackendException.Unauthenticated the backend's cloud refused its credentials (401,
   *     403): treated as Retryable, since credentials are often fixed outside the gateway
   */
  TrainingBackend create(C config, BackendContext context);
}
