package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A job followed by watch through every end state, as the operator moves it. */
class KubernetesLifecycleIT extends CrudServerTest {

  @Test
  void aJobRunsRestartsAndSucceedsWithEveryChangePushed() throws Exception {
    var changes = new LinkedBlockingQueue<ExternalRef>();
    backend.events(changes::add);
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    operator.created(at);
    assertThat(changes.poll(10, TimeUnit.SECONDS)).isEqualTo(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    var running = awaitPhase(ref, BackendPhase.RUNNING);
    assertThat(running.startedAt()).isNotNull();
    assertThat(running.restarts()).isZero();

    operator.restarting(at, "Worker", 1);
    // The restart tally and the cached object are two views of the watch: await both.
    var restarting =
        awaitStatus(
            ref,
            s -> s.restarts() == 1 && s.reason() != null && s.reason().contains("restarting"),
            "one restart");
    assertThat(restarting.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(restarting.reason())
        .isEqualTo(
            "PyTorchJob " + at.name() + " is restarting because 1 Worker replica(s) failed.");
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    clock.advance(java.time.Duration.ofMinutes(5));
    operator.restarting(at, "Worker", 1);
    awaitStatus(ref, s -> s.restarts() == 2, "a second restart");
    operator.running(at, Map.of("Master", 1, "Worker", 2));

    operator.succeeded(at);
    var done = awaitPhase(ref, BackendPhase.SUCCEEDED);
    assertThat(done.reason()).isEqualTo("PyTorchJob " + at.name() + " is successfully completed.");
    assertThat(done.restarts()).isEqualTo(2);
    assertThat(done.startedAt()).isNotNull();
    assertThat(done.endedAt()).isNotNull();
    assertThat(changes).contains(ref);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "paddle, PaddleJob, 'master: 1, worker: 2', Worker",
    "jax, JAXJob, 'worker: 3', Worker"
  })
  void paddleAndJaxJobsAreCreatedAndFollowedThroughTheOperatorsConditions(
      String framework, String kind, String replicas, String type) {
    var ref =
        submit(
            job(
                SPEC.replace("framework: pytorch", "framework: " + framework)
                    .replace("replicas: {master: 1, worker: 2}", "replicas: {" + replicas + "}")));
    var at = Attempt.of(ref);
    assertThat(at.kind().kind()).isEqualTo(kind);
    assertThat(at.kind().apiVersion()).isEqualTo("kubeflow.org/v1");
    var created =
        cluster
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(at.kind()))
            .inNamespace(at.namespace())
            .withName(at.name())
            .get();
    assertThat(created).as("the %s object on the API server", kind).isNotNull();

    operator.created(at);
    operator.running(at, Map.of(type, 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    operator.failed(at, type, 1);
    var failed = awaitPhase(ref, BackendPhase.FAILED);
    assertThat(failed.reason())
        .isEqualTo(kind + " " + at.name() + " is failed because 1 " + type + " replica(s) failed.");
  }

  @Test
  void aFailedJobEndsWithTheOperatorsMessage() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    operator.failed(at, "Worker", 2);
    var failed = awaitPhase(ref, BackendPhase.FAILED);
    assertThat(failed.reason())
        .isEqualTo("PyTorchJob " + at.name() + " is failed because 2 Worker replica(s) failed.");
    assertThat(failed.endedAt()).isNotNull();
    // Nothing moves a failed job again, as with the operator.
    operator.succeeded(at);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.FAILED);
  }

  @Test
  void aSuspendedJobWaitsAndRunsWhenResumed() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    operator.suspended(at);
    var held = awaitPhase(ref, BackendPhase.SUSPENDED);
    assertThat(held.reason()).isEqualTo("PyTorchJob " + at.name() + " is suspended.");
    operator.resumed(at);
    awaitPhase(ref, BackendPhase.ADMITTING);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
  }

  @Test
  void anObjectDeletedUnderALiveJobIsNotFound() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    operator.delete(at);
    await(
        () -> {
          try {
            backend.status(ref);
            return false;
          } catch (BackendException.NotFound e) {
            return true;
          }
        },
        "the attempt is not found");
  }

  @Test
  void aFinishedJobDeletedByItsTtlStillReadsAsFinished() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    operator.succeeded(at);
    awaitPhase(ref, BackendPhase.SUCCEEDED);
    await(
        () -> backend.cachedPhase(ref).filter(p -> p == BackendPhase.SUCCEEDED).isPresent(),
        "the informer holds its end");
    // ttlSecondsAfterFinished: the operator deletes the job before the gateway's next look.
    operator.delete(at);
    await(() -> backend.cachedJobs() == 0, "the informer saw the delete");
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);
    // A backend that never saw it end cannot know: the gateway then ends the job as lost.
    var restarted = newBackend();
    assertThatThrownBy(() -> restarted.status(ref)).isInstanceOf(BackendException.NotFound.class);
  }
}
