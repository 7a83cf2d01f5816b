package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

/** A job as the API shows it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobView(
    String id,
    String name,
    String team,
    String owner,
    JobState state,
    int attempt,
    String backend,
    String objectName,
    BigDecimal hourlyUsd,
    BigDecimal estimatedUsd,
    String reason,
    int restarts,
    boolean cancelRequested,
    Instant createdAt,
    Instant submittedAt,
    Instant startedAt,
    Instant endedAt,
    BigDecimal durationSeconds,
    String algorithm) {
  private static final com.fasterxml.jackson.databind.ObjectMapper SPEC =
      new com.fasterxml.jackson.databind.ObjectMapper();

  public static JobView of(JobRow job, Instant now) {
    BigDecimal duration = null;
    if (job.startedAt() != null) {
      var end = job.endedAt() != null ? job.endedAt() : now;
      duration = BigDecimal.valueOf(Duration.between(job.startedAt(), end).toMillis(), 3);
    }
    return new JobView(
        job.id(),
        job.name(),
        job.team(),
        job.ownerUsername(),
        job.state(),
        job.attempt(),
        job.backendId(),
        job.backendId() == null ? null : ObjectNames.of(job.id(), job.attempt()),
        job.hourlyUsd(),
        job.estimatedUsd(),
        job.reason(),
        job.restarts(),
        job.cancelRequested(),
        job.createdAt(),
        job.submittedAt(),
        job.startedAt(),
        job.endedAt(),
        duration,
        algorithm(job.specJson()));
  }

  /** The registered algorithm version the job runs ({@code team/name@N}), as resolved at submit. */
  private static String algorithm(String specJson) {
    if (specJson == null || !specJson.contains("\"algorithm\"")) {
      return null;
    }
    try {
      var node = SPEC.readTree(specJson).at("/spec/algorithm");
      return node.isTextual() ? node.asText() : null;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return null;
    }
  }
}
