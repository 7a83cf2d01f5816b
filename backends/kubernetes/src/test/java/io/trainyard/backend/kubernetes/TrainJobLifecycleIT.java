package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flavor trainer-v2 end to end on the CRUD API server with the TrainJob CRD: the attempt is a
 * TrainJob, followed by its informer as the fake Trainer controller moves it; suspension past the
 * admission timeout (2m, on the test's clock), cancel, adoption and logs as for v1 jobs.
 */
class TrainJobLifecycleIT extends CrudServerTest {
  private static final String WITH_DEEPSPEED =
      SPEC + "deepspeed: {zero_optimization: {stage: 2}}\n";

  private FakeTrainerController trainer;

  @Override
  String configYaml() {
    return TestJobs.TRAINER_V2;
  }

  @BeforeEach
  void startController() {
    trainer = new FakeTrainerController(cluster.client(), clock);
  }

  @Test
  void aTrainJobIsCreatedRunsAndCompletesWithEveryChangePushed() throws Exception {
    var changes = new LinkedBlockingQueue<ExternalRef>();
    backend.events(changes::add);
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    assertThat(at.kind()).isEqualTo(JobKind.TRAIN_JOB);
    var object = trainer.get(at);
    assertThat(object.getMetadata().getNamespace()).isEqualTo("nlp-jobs");
    assertThat(object.getMetadata().getLabels())
        .containsEntry("kueue.x-k8s.io/queue-name", "team-queue")
        .containsKeys("trainyard.io/job-id", "trainyard.io/spec-hash", "trainyard.io/team");
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    trainer.running(at);
    assertThat(changes.poll(10, TimeUnit.SECONDS)).isEqualTo(ref);
    var running = awaitPhase(ref, BackendPhase.RUNNING);
    assertThat(running.reason()).isEqualTo("jobs running: node");
    assertThat(running.startedAt()).isNotNull();

    trainer.complete(at);
    var done = awaitPhase(ref, BackendPhase.SUCCEEDED);
    assertThat(done.reason()).isEqualTo("jobset completed successfully");
    assertThat(done.endedAt()).isNotNull();
    assertThat(changes).contains(ref);
  }

  @Test
  void aFailedTrainJobEndsWithTheJobSetsWords() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    trainer.running(at);
    awaitPhase(ref, BackendPhase.RUNNING);
    trainer.failed(at);
    var failed = awaitPhase(ref, BackendPhase.FAILED);
    assertThat(failed.reason()).isEqualTo("jobset failed due to one or more job failures");
    assertThat(failed.restarts()).isEqualTo(1);
    assertThat(failed.endedAt()).isNotNull();
  }

  @Test
  void aTrainJobHeldByKueuePastTheTimeoutIsDeletedAndRefusedAlsoAfterARestart() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    trainer.suspended(at);
    var held = awaitPhase(ref, BackendPhase.SUSPENDED);
    assertThat(held.reason()).isEqualTo("TrainJob is suspended");
    clock.advance(Duration.ofMinutes(1));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.SUSPENDED);

    clock.advance(Duration.ofMinutes(2));
    var refused = backend.status(ref);
    assertThat(refused.phase()).isEqualTo(BackendPhase.REFUSED);
    assertThat(refused.reason()).isEqualTo("not admitted within 2m: TrainJob is suspended");
    assertThat(trainer.get(at)).as("the attempt's TrainJob").isNull();
    assertThat(newBackend().status(ref).reason()).isEqualTo(refused.reason());
  }

  @Test
  void aTrainJobResumedByKueueRunsAndIsNeverRefused() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    trainer.suspended(at);
    awaitPhase(ref, BackendPhase.SUSPENDED);
    trainer.resumed(at);
    awaitPhase(ref, BackendPhase.ADMITTING);
    trainer.running(at);
    awaitPhase(ref, BackendPhase.RUNNING);
    clock.advance(Duration.ofHours(5));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.RUNNING);
  }

  @Test
  void cancelDeletesARunningTrainJobAndLosesToOneThatCompleted() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    trainer.running(at);
    awaitPhase(ref, BackendPhase.RUNNING);
    backend.cancel(ref);
    assertThat(trainer.get(at)).isNull();
    await(() -> notFound(ref), "the cancelled attempt is gone");
    backend.cancel(ref);

    var done = submit(job(SPEC));
    var doneAt = Attempt.of(done);
    trainer.running(doneAt);
    trainer.complete(doneAt);
    backend.cancel(done);
    assertThat(trainer.get(doneAt)).isNotNull();
    assertThat(awaitPhase(done, BackendPhase.SUCCEEDED).reason())
        .isEqualTo("jobset completed successfully");
  }

  @Test
  void aRestartedGatewayAdoptsItsTrainJobAndNoOther() {
    var job = job(WITH_DEEPSPEED);
    var ref = submit(job);
    assertThat(newBackend().submit(job)).isEqualTo(ref);
    var jobs =
        cluster
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(JobKind.TRAIN_JOB))
            .inNamespace("nlp-jobs")
            .list()
            .getItems();
    assertThat(jobs).hasSize(1);
    var config = cluster.client().configMaps().inNamespace("nlp-jobs").list().getItems();
    assertThat(config).singleElement();
    assertThat(config.get(0).getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getApiVersion()).isEqualTo("trainer.kubeflow.org/v1alpha1");
              assertThat(owner.getKind()).isEqualTo("TrainJob");
              assertThat(owner.getUid()).isEqualTo(jobs.get(0).getMetadata().getUid());
            });

    var edited =
        new BackendJob(
            job.jobId(),
            job.attempt(),
            job.team(),
            job.owner(),
            job.name(),
            job.spec(),
            "f".repeat(64),
            job.placement(),
            job.settings());
    assertThatThrownBy(() -> newBackend().submit(edited))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("TrainJob nlp-jobs/" + job.objectName() + " already exists");
  }

  @Test
  void aTrainJobDeletedWhileLiveIsNotFoundButOneThatCompletedKeepsItsEnd() {
    var live = submit(job(SPEC));
    trainer.running(Attempt.of(live));
    awaitPhase(live, BackendPhase.RUNNING);
    trainer.delete(Attempt.of(live));
    await(() -> notFound(live), "the deleted attempt is not found");

    var done = submit(job(SPEC));
    trainer.complete(Attempt.of(done));
    awaitPhase(done, BackendPhase.SUCCEEDED);
    // A read may answer from the server before the watch delivers the end: wait for the watch.
    await(
        () -> backend.cachedPhase(done).filter(p -> p == BackendPhase.SUCCEEDED).isPresent(),
        "the informer holds its end");
    trainer.delete(Attempt.of(done));
    await(() -> backend.cachedJobs() == 0, "the informer saw the deletes");
    assertThat(backend.status(done).phase()).isEqualTo(BackendPhase.SUCCEEDED);
  }

  @Test
  void logsComeFromTheNodeContainerOfTheJobSetsPods() throws Exception {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    var pods = trainer.pods(at, 2);
    kubelet(at, pods.get(0), "2026-01-05T10:00:00Z rank 0 up\n2026-01-05T10:00:02Z loss 0.9\n");
    kubelet(at, pods.get(1), "2026-01-05T10:00:01Z rank 1 up\n");

    var lines = all(backend.logs(ref, LogQuery.ALL));
    assertThat(lines)
        .extracting(l -> l.replica() + ": " + l.text())
        .containsExactly("node-0: rank 0 up", "node-1: rank 1 up", "node-0: loss 0.9");
    assertThat(all(backend.logs(ref, new LogQuery("node-1", null, false))))
        .extracting(LogLine::text)
        .containsExactly("rank 1 up");
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("node-7", null, false)))
        .isInstanceOf(BackendException.NotFound.class)
        .hasMessageContaining("node-0, node-1");
  }

  private void kubelet(Attempt at, String pod, String body) {
    var path =
        "/api/v1/namespaces/"
            + at.namespace()
            + "/pods/"
            + pod
            + "/log?pretty=false&container=node&timestamps=true";
    cluster.expect().get().withPath(path).andReturn(200, body).always();
  }

  private boolean notFound(ExternalRef ref) {
    try {
      backend.status(ref);
      return false;
    } catch (BackendException.NotFound e) {
      return true;
    }
  }

  private static List<LogLine> all(io.trainyard.spi.LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    stream.close();
    return lines;
  }
}
