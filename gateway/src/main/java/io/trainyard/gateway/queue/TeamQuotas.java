package io.trainyard.gateway.queue;

import io.trainyard.gateway.db.JobAdmission;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.spi.spec.TrainingJob;
import org.jdbi.v3.core.Handle;

/**
 * The teams' quotas ({@code teams.X.maxConcurrentJobs}, {@code teams.X.maxGpus}), checked by the
 * job store wherever a job would be placed, with the team's row locked. A job over one waits
 * QUEUED, its reason naming the quota. Thread-safe.
 */
public final class TeamQuotas implements JobAdmission {
  private final TeamDirectory teams;
  private final StoredJson json;

  public TeamQuotas(TeamDirectory teams, StoredJson json) {
    this.teams = teams;
    this.json = json;
  }

  @Override
  public String refusal(Handle h, JobRow job) {
    var config = teams.config(job.team());
    if (config.maxConcurrentJobs() == null && config.maxGpus() == null) {
      return null;
    }
    var usage = QueueStore.usage(h, job.team());
    if (config.maxConcurrentJobs() != null && usage.jobs() + 1 > config.maxConcurrentJobs()) {
      return "team "
          + job.team()
          + " is at its quota teams."
          + job.team()
          + ".maxConcurrentJobs: "
          + usage.jobs()
          + " of "
          + config.maxConcurrentJobs()
          + " jobs placed";
    }
    if (config.maxGpus() != null) {
      var gpus = json.read(job.specJson(), TrainingJob.class).spec().totalGpus();
      if (gpus > 0 && usage.gpus() + gpus > config.maxGpus()) {
        return "team "
            + job.team()
            + " is at its quota teams."
            + job.team()
            + ".maxGpus: "
            + usage.gpus()
            + " GPUs held + "
            + gpus
            + " for this job > "
            + config.maxGpus();
      }
    }
    return null;
  }
}
