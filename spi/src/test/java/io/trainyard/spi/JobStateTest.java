package io.trainyard.spi;

import static io.trainyard.spi.JobState.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class JobStateTest {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "QUEUED, PENDING",
    "QUEUED, CANCELLED",
    "PENDING, SUBMITTED",
    "PENDING, QUEUED",
    "PENDING, FAILED",
    "PENDING, CANCELLED",
    "SUBMITTED, RUNNING",
    "SUBMITTED, PENDING",
    "SUBMITTED, FAILED",
    "SUBMITTED, CANCELLING",
    "RUNNING, SUCCEEDED",
    "RUNNING, FAILED",
    "RUNNING, SUBMITTED",
    "RUNNING, CANCELLING",
    "CANCELLING, CANCELLED",
    "CANCELLING, SUCCEEDED",
    "CANCELLING, FAILED"
  })
  void allowsTheDesignTransitions(JobState from, JobState to) {
    assertThat(from.canMoveTo(to)).isTrue();
    JobState.requireTransition(from, to);
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "QUEUED, RUNNING", "PENDING, RUNNING", "PENDING, SUCCEEDED", "SUBMITTED, SUCCEEDED",
    "SUBMITTED, CANCELLED", "RUNNING, PENDING", "RUNNING, CANCELLED", "CANCELLING, RUNNING",
    "SUCCEEDED, RUNNING", "FAILED, PENDING", "CANCELLED, PENDING", "RUNNING, RUNNING"
  })
  void refusesEveryOther(JobState from, JobState to) {
    assertThat(from.canMoveTo(to)).isFalse();
    assertThatThrownBy(() -> JobState.requireTransition(from, to))
        .isInstanceOf(JobState.IllegalTransitionException.class)
        .hasMessageContaining(from + " to " + to);
  }

  @ParameterizedTest
  @EnumSource(
      value = JobState.class,
      names = {"SUCCEEDED", "FAILED", "CANCELLED"})
  void terminalStatesAreFinal(JobState state) {
    assertThat(state.isTerminal()).isTrue();
    assertThat(state.next()).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void theTableHasExactlySeventeenEdges() {
    var edges = 0;
    for (var from : JobState.values()) {
      for (var to : EnumSet.allOf(JobState.class)) {
        edges += from.canMoveTo(to) ? 1 : 0;
      }
    }
    assertThat(edges).isEqualTo(17);
  }
}
