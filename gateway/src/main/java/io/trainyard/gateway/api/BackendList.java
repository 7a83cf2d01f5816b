package io.trainyard.gateway.api;

import java.time.Instant;
import java.util.List;

/** {@code GET /v1/backends}. */
public record BackendList(List<Backend> backends) {
  /**
   * One configured backend: its health, the jobs on it, what they hold against what it can hold,
   * and how old the prices it is quoted with are. {@code healthy} and {@code message} repeat {@code
   * health} for older clients.
   */
  public record Backend(
      String id,
      String kind,
      String region,
      boolean hipaaEligible,
      boolean healthy,
      String message,
      Jobs jobs,
      Capacity capacity,
      Catalog catalog,
      Health health) {}

  /**
   * @param running placed on it: SUBMITTED, RUNNING, CANCELLING
   * @param queued QUEUED waiting for it
   */
  public record Jobs(long running, long queued) {}

  public record Capacity(Use gpus, Use cpus, Use jobs) {}

  /**
   * @param limit from {@code metrics.backendCapacity}; null when unknown
   */
  public record Use(Number used, Number limit) {}

  /**
   * @param source where the prices come from
   * @param asOf when they were compiled or last refreshed; null when unknown
   * @param ageSeconds now − asOf; null when unknown
   */
  public record Catalog(String source, Instant asOf, Long ageSeconds) {}

  /**
   * @param reason why not, when unhealthy; null when healthy
   */
  public record Health(boolean healthy, String reason) {}
}
