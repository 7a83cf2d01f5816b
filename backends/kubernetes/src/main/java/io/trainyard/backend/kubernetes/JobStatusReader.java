package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;

/**
 * Reads a job object's {@code status} the way its controller writes it. Pure and thread-safe; one
 * per {@link JobKind}.
 */
interface JobStatusReader {
  /** The attempt's status as the object alone shows it (restarts: as seen now). */
  BackendStatus of(GenericKubernetesResource job);

  /**
   * Since when the attempt has been waiting to run: its creation, or the start of its latest
   * suspension. Read from the object, so it survives a gateway restart; null when unknown.
   */
  Instant waitingSince(GenericKubernetesResource job);

  /**
   * An identity of the restart the object shows now (the time its controller said it restarts), or
   * null when it shows none; {@link RestartTally} counts the distinct ones.
   */
  String restartingSince(GenericKubernetesResource job);
}
