package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.backends.BoundedCalls;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Submits with a deadline, against a backend whose calls hang until the test lets them go. */
class BoundedSubmitsTest {
  private final FakeBackend backend = new FakeBackend("cheap", "1.00");

  @Test
  void aHangingBackendGetsAtMostItsShareOfCallsAndWhatTheyMakeLateIsCancelled() throws Exception {
    var submits = new BoundedSubmits(Duration.ofMillis(50));
    backend.submitGate = new CountDownLatch(1);
    int tried = BoundedSubmits.MAX_UNANSWERED + 2;
    for (int i = 1; i <= tried; i++) {
      var attempt = attempt("job" + i);
      var expected =
          i <= BoundedSubmits.MAX_UNANSWERED
              ? "no answer to the submit within 50 ms"
              : BoundedSubmits.MAX_UNANSWERED + " earlier calls to cheap have not answered yet";
      assertThatThrownBy(() -> submits.submit("cheap", backend, attempt))
          .isInstanceOf(BoundedCalls.NoAnswer.class)
          .hasMessage(expected);
    }
    assertThat(backend.submitCalls).as("the last two were not sent").hasSize(8);
    assertThat(submits.inFlight("job1", 1)).isTrue();
    assertThat(submits.inFlight("job9", 1)).as("never sent").isFalse();

    backend.submitGate.countDown();
    var deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (backend.cancelled.size() < 8 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(backend.cancelled).hasSize(8);
    assertThat(backend.phaseOf(attempt("job1").objectName())).isEqualTo(BackendPhase.STOPPED);
    while (submits.inFlight("job8", 1) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(submits.inFlight("job8", 1)).isFalse();
    // Answered again: the backend gets calls as before.
    assertThat(submits.submit("cheap", backend, attempt("job11")).name())
        .isEqualTo(attempt("job11").objectName());
  }

  @Test
  void anAnswerInTimeOrARefusalReachesTheCallerAsTheBackendGaveIt() {
    var submits = new BoundedSubmits(Duration.ofSeconds(10));
    assertThat(submits.submit("cheap", backend, attempt("a")).name())
        .isEqualTo(attempt("a").objectName());
    backend.answer = FakeBackend.Answer.NO_CAPACITY;
    assertThatThrownBy(() -> submits.submit("cheap", backend, attempt("b")))
        .isInstanceOf(BackendException.CapacityUnavailable.class)
        .hasMessage("no nodes free");
    assertThat(submits.inFlight("b", 1)).isFalse();
    assertThat(backend.cancelled).isEmpty();
  }

  private static BackendJob attempt(String jobId) {
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: hang}
        spec: {framework: pytorch, image: img, command: [train], replicas: {master: 1}}
        """;
    var job = new SpecReader(1 << 16).read(yaml.getBytes(StandardCharsets.UTF_8));
    return new BackendJob(jobId, 1, "nlp", "alice", "hang", job.job().spec(), "00", null, null);
  }
}
