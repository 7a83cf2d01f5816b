package io.trainyard.gateway.queue;

/**
 * What a team holds on backends now: its placed jobs (PENDING on an offer, SUBMITTED, RUNNING,
 * CANCELLING) and their GPUs.
 */
public record TeamUsage(int jobs, int gpus) {
  public static final TeamUsage NONE = new TeamUsage(0, 0);

  TeamUsage plus(int moreGpus) {
    return new TeamUsage(jobs + 1, gpus + moreGpus);
  }
}
