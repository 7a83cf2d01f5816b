package io.trainyard.gateway.queue;

import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.spi.JobState;
import io.trainyard.spi.spec.TrainingJob;
import org.jdbi.v3.core.Handle;

/**
 * The queue's part of every job change, in the change's own transaction (a {@link JobAudit}
 * decorator): a stored job's ordering facts (capped priority, GPUs) are recorded with it, and a
 * placed job that ends asks for the queue to be quoted again, in whichever replica dispatches.
 */
public final class QueueFacts implements JobAudit {
  private final JobAudit delegate;
  private final QueueStore queue;
  private final TeamDirectory teams;
  private final StoredJson json;

  public QueueFacts(JobAudit delegate, QueueStore queue, TeamDirectory teams, StoredJson json) {
    this.delegate = delegate;
    this.queue = queue;
    this.teams = teams;
    this.json = json;
  }

  @Override
  public void submitted(Handle h, JobRow stored, AuditActor actor) {
    delegate.submitted(h, stored, actor);
    var spec = json.read(stored.specJson(), TrainingJob.class).spec();
    QueueStore.recordFacts(
        h,
        stored.id(),
        stored.team(),
        QueuePriority.of(teams.config(stored.team()), spec),
        spec.totalGpus());
  }

  @Override
  public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
    delegate.refused(h, attempted, actor, reason);
  }

  @Override
  public void changed(Handle h, JobRow before, JobRow after, String replica) {
    delegate.changed(h, before, after, replica);
    boolean freed =
        before.state() != JobState.QUEUED
            && !before.state().isTerminal()
            && after.state().isTerminal();
    if (freed) {
      // Its room (on the backend, in the team's quota) is free for the queue.
      queue.requestRequote(h);
    }
  }

  @Override
  public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
    delegate.cancelRequested(h, job, actor);
  }

  @Override
  public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
    delegate.adopted(h, job, previousReplica, replica);
  }

  @Override
  public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
    delegate.attemptCleanedUp(h, job, cleanup);
  }
}
