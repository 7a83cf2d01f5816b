package io.trainyard.gateway.metrics;

import java.net.URI;
import java.util.function.Supplier;

/**
 * Where jobs and browsers reach the gateway: {@code gateway.publicUrl} when configured, else the
 * application HTTP connector on the loopback address, known once the server has started (its port
 * may be chosen at start). Thread-safe.
 */
public final class PublicUrl implements Supplier<URI> {
  private final URI configured;
  private volatile URI started;

  public PublicUrl(URI configured) {
    this.configured = configured;
  }

  /** The connector the server started on; used only when nothing is configured. */
  public void serverStarted(int port) {
    started = URI.create("http://127.0.0.1:" + port);
  }

  /** The URL, or null while the server has not started and nothing is configured. */
  @Override
  public URI get() {
    return configured != null ? configured : started;
  }

  public boolean configured() {
    return configured != null;
  }
}
