package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconciler's fenced writes of a job it leased, with the job events that say what changed. A
 * write that is fenced out (the lease lapsed, or another replica moved the row) writes nothing and
 * is logged; the next pass re-reads the row.
 */
final class JobWrites {
  private static final Logger LOG = LoggerFactory.getLogger(JobWrites.class);

  private final JobStore store;
  private final Clock clock;
  private volatile BiConsumer<String, String> moved = (jobId, backendId) -> {};

  JobWrites(JobStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  private Instant now() {
    return clock.instant();
  }

  void write(JobRow job, String owner, JobRow next) {
    commit(job, owner, next, stateEvent(job, next));
  }

  void write(JobRow job, String owner, JobRow next, String type, String message) {
    commit(job, owner, next, List.of(JobEvent.of(job.id(), now(), type, message)));
  }

  private static String describeReason(JobRow next) {
    return next.reason() == null ? "" : ": " + next.reason();
  }

  /**
   * Hears of every job moved to a new attempt on its next offer (a failover): with the job's id and
   * the attempt's backend, so that the job is stepped there without waiting for a pass.
   */
  void onMoved(BiConsumer<String, String> listener) {
    this.moved = listener;
  }

  /** Says that {@code job} was moved to a new attempt on {@code backendId} ({@link #onMoved}). */
  void moved(String jobId, String backendId) {
    moved.accept(jobId, backendId);
  }

  boolean commit(JobRow job, String owner, JobRow next, List<JobEvent> events) {
    var ok = store.update(next, job.version(), owner, events);
    if (!ok) {
      LOG.info("job {}: lost the lease or a race; the next pass re-reads it", job.id());
    }
    return ok;
  }

  /** Writes, then re-reads the row for a further step in the same pass; null when fenced out. */
  JobRow writeAndReload(JobRow job, String owner, JobRow next) {
    if (!commit(job, owner, next, stateEvent(job, next))) {
      return null;
    }
    return store.find(job.id()).orElse(null);
  }

  List<JobEvent> stateEvent(JobRow job, JobRow next) {
    return next.state() == job.state()
        ? List.of()
        : List.of(
            JobEvent.of(job.id(), now(), JobEvent.STATE, next.state() + describeReason(next)));
  }
}
