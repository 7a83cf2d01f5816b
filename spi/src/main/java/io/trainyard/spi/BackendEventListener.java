package io.trainyard.spi;

/** Receives pushed status changes; see {@link TrainingBackend#events}. */
@FunctionalInterface
public interface BackendEventListener {
  /** The attempt behind {@code ref} changed; the listener reads its status when it likes. */
  void changed(ExternalRef ref);
}
