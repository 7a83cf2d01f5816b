package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.TrainingBackend;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ended (or cancelled) attempt's logs, for backends whose logs go with what ran them: archived
 * before the job's last write, said in a job event, and the attempt's objects cleaned up only once
 * the archive is safe. Thread-safe (the archive is).
 */
final class AttemptLogs {
  private static final Logger LOG = LoggerFactory.getLogger(AttemptLogs.class);

  private final LogArchive archive;
  private final Clock clock;

  AttemptLogs(LogArchive archive, Clock clock) {
    this.archive = archive;
    this.clock = clock;
  }

  /**
   * What archiving an attempt's logs came to: done or not, and the job event saying so (null when
   * an earlier step archived them and said so then).
   */
  record Archived(boolean done, String message) {}

  List<JobEvent> withLogEvent(List<JobEvent> events, JobRow job, Optional<Archived> archived) {
    if (archived.isEmpty() || archived.get().message() == null) {
      return events;
    }
    var all = new ArrayList<>(events);
    all.add(JobEvent.of(job.id(), clock.instant(), JobEvent.LOGS, archived.get().message()));
    return all;
  }

  /**
   * Archives the attempt's logs when its backend does not keep them and they are not archived yet;
   * the event to record, empty when there was nothing to do. A failure is recorded, not thrown: the
   * job still ends, and its pods stay (no cleanup) so the logs can be read from them.
   */
  Optional<Archived> archive(JobRow job, TrainingBackend backend, ExternalRef ref) {
    if (backend.keepsLogs()) {
      return Optional.empty();
    }
    if (archive.has(job.id(), job.attempt())) {
      return Optional.of(new Archived(true, null));
    }
    try {
      var summary = archive.archive(job.id(), job.attempt(), backend, ref);
      return Optional.of(new Archived(true, summary.describe(job.attempt())));
    } catch (RuntimeException e) {
      LOG.warn("job {}: logs of attempt {} not archived", job.id(), job.attempt(), e);
      return Optional.of(
          new Archived(
              false,
              "logs of attempt "
                  + job.attempt()
                  + " not archived ("
                  + e.getMessage()
                  + "); the backend keeps them for now"));
    }
  }

  void cleanUp(JobRow job, TrainingBackend backend, ExternalRef ref) {
    try {
      backend.cleanup(ref);
    } catch (RuntimeException e) {
      // The operator's own TTL, or a person, cleans up; the logs are safe.
      LOG.warn("job {}: cleanup of attempt {} failed", job.id(), job.attempt(), e);
    }
  }
}
