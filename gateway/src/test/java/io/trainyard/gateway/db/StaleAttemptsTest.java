package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.JobState;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which writes leave an attempt whose object may exist ({@link StaleAttempts#leaves}). */
class StaleAttemptsTest {
  @ParameterizedTest(name = "{0} a{1} on {2} -> {3} a{4}: left {5}")
  @CsvSource({
    // A failover: another attempt, from any state placed on a backend.
    "PENDING, 1, cheap, PENDING, 2, true",
    "SUBMITTED, 1, cheap, PENDING, 2, true",
    "RUNNING, 3, cheap, PENDING, 4, true",
    // Back to the queue or failed while PENDING: the submit's answer may have been lost.
    "PENDING, 1, cheap, QUEUED, 1, true",
    "PENDING, 1, cheap, FAILED, 1, true",
    // Its own attempt going on or ending through the backend's status.
    "PENDING, 1, cheap, SUBMITTED, 1, false",
    "PENDING, 1, cheap, PENDING, 1, false",
    "SUBMITTED, 1, cheap, RUNNING, 1, false",
    "SUBMITTED, 1, cheap, PENDING, 1, false",
    "RUNNING, 1, cheap, FAILED, 1, false",
    "RUNNING, 1, cheap, SUCCEEDED, 1, false",
    "CANCELLING, 1, cheap, CANCELLED, 1, false",
    // Cancelled while PENDING: its attempt is cancelled before the write.
    "PENDING, 1, cheap, CANCELLED, 1, false",
    // QUEUED holds no attempt of its own: the one before was recorded when it was queued.
    "QUEUED, 1, cheap, PENDING, 2, false",
    "QUEUED, 1, , PENDING, 1, false",
  })
  void leaves(
      JobState from, int attempt, String backend, JobState to, int nextAttempt, boolean left) {
    var before = row(from, attempt, backend);
    var after = before.toBuilder().state(to).attempt(nextAttempt).build();
    assertThat(StaleAttempts.leaves(before, after)).isEqualTo(left);
  }

  private static JobRow row(JobState state, int attempt, String backend) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team("nlp")
        .ownerSubject("subject-alice")
        .ownerUsername("alice")
        .name("j")
        .state(state)
        .attempt(attempt)
        .specJson("{}")
        .specHash("0".repeat(64))
        .decisionJson("{\"offers\":[]}")
        .backendId(backend)
        .createdAt(Instant.parse("2030-01-01T00:00:00Z"))
        .build();
  }
}
