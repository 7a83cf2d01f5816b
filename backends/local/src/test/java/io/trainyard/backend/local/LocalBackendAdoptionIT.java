package io.trainyard.backend.local;

import static io.trainyard.backend.local.LocalBackendRig.shellJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What submit accepts, refuses and adopts, including after a gateway restart. */
class LocalBackendAdoptionIT {
  @TempDir Path temp;
  private LocalBackendRig rig;

  @BeforeEach
  void open() {
    rig = new LocalBackendRig(temp);
  }

  @AfterEach
  void stopEverything() {
    rig.close();
  }

  @Test
  void submittingTheSameAttemptTwiceStartsItOnce() throws Exception {
    var job = shellJob("echo started; sleep 0.5", "", "master: 1, worker: 1");

    var first = rig.submit(job);
    var second = rig.backend().submit(job);

    assertThat(second).isEqualTo(first);
    assertThat(rig.awaitEnd(first).phase()).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(rig.backend().submit(job)).isEqualTo(first);
    // One start per replica (master and worker), none for the repeated submits.
    assertThat(rig.texts(first, null)).filteredOn("started"::equals).hasSize(2);
    assertThatThrownBy(
            () -> rig.backend().submit(TestJobs.job(job.jobId(), job.spec(), "other-hash")))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("different spec");
  }

  @Test
  void anAttemptDirectoryOfAnotherJobIsNotTakenOver() {
    var job = shellJob("echo never", "", "master: 1");
    var files = new AttemptFiles(rig.dataDir.resolve(job.objectName()));
    files.create();
    files.writeMarker(new AttemptMarker(TestJobs.newJobId(), 1, "h", Instant.now()));

    assertThatThrownBy(() -> rig.backend().submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("already holds an attempt of job");
  }

  @Test
  void aBackendOpenedAfterARestartAdoptsTheLiveAttemptAndSeesItFinish() throws Exception {
    var job = shellJob("echo started; sleep 1.5; echo finished", "", "master: 1");
    var ref = rig.submit(job);
    assertThat(rig.backend().status(ref).phase()).isEqualTo(BackendPhase.RUNNING);

    var restarted = rig.reopen(rig.config());
    var events = new CopyOnWriteArrayList<ExternalRef>();
    restarted.events(events::add);
    assertThat(restarted.status(ref).phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(restarted.placements(job.spec()).placements().get(0).freeCapacity()).isEqualTo(3);
    assertThat(restarted.submit(job)).isEqualTo(ref);
    List<String> followed;
    try (var stream = restarted.logs(ref, new LogQuery("master-0", null, true))) {
      followed =
          LocalBackendRig.readAll(stream).stream().map(io.trainyard.spi.LogLine::text).toList();
    }

    assertThat(rig.awaitEnd(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(events).contains(ref);
    // Started once: the restarted backend adopted the replica instead of starting it again.
    assertThat(followed).containsExactly("started", "finished");
  }

  @Test
  void submitBeyondMaxConcurrentJobsIsRefusedForCapacity() {
    var backend = rig.reopen(rig.withMaxJobs(1));
    rig.submit(shellJob("sleep 30", "", "master: 1"));

    // Full is "not now": the gateway queues the job instead of refusing it.
    var full = backend.placements(shellJob("true", "", "master: 1").spec());
    assertThat(full.placements()).isEmpty();
    assertThat(full.rejections())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(io.trainyard.spi.Rejection.Kind.NOT_NOW);
              assertThat(r.reason()).contains("no free job slot");
            });
    assertThatThrownBy(() -> backend.submit(shellJob("true", "", "master: 1")))
        .isInstanceOf(BackendException.CapacityUnavailable.class);
  }

  @Test
  void secretEnvIsDeliveredButNeverWrittenDown() throws Exception {
    Files.createDirectories(temp.resolve("secrets/team/wandb"));
    Files.writeString(temp.resolve("secrets/team/wandb/api-key"), "s3cr3t-value\n");
    var ref =
        rig.submit(
            shellJob(
                "echo \"delivered $API_TOKEN\"; echo \"length ${#API_TOKEN}\"",
                "secretEnv: {API_TOKEN: {secret: wandb, key: api-key}}",
                "master: 1"));

    assertThat(rig.awaitEnd(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);
    // Delivered (its length shows), and scrubbed from what the job printed when read back.
    assertThat(rig.texts(ref, "master-0")).containsExactly("delivered [REDACTED]", "length 12");
    for (var name : List.of("marker.json", "plan.json", "state.json")) {
      assertThat(Files.readString(rig.attemptDir(ref).resolve(name))).doesNotContain("s3cr3t");
    }
  }

  @Test
  void aMissingSecretIsRefusedBeforeAnythingStarts() {
    var job =
        shellJob(
            "echo never", "secretEnv: {API_TOKEN: {secret: wandb, key: api-key}}", "master: 1");

    assertThatThrownBy(() -> rig.backend().submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("secret 'wandb' key 'api-key'");
    assertThat(rig.dataDir.resolve(job.objectName())).doesNotExist();
  }

  @Test
  void whatCannotRunHereIsRejectedAtSubmitToo() {
    var gpu =
        TestJobs.job(
            TestJobs.spec(
                """
                framework: pytorch
                command: [python3, train.py]
                replicas: {master: 1}
                resources: {gpus: 1, gpuType: nvidia-t4}
                """));

    assertThatThrownBy(() -> rig.backend().submit(gpu))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessage("the local backend has no GPUs");
  }

  @Test
  void anUnknownAttemptIsNotFoundAndCancellingItIsANoOp() {
    var backend = rig.backend();
    var ref = new ExternalRef(backend.id(), "ty-" + TestJobs.newJobId() + "-a1", Map.of());

    assertThatThrownBy(() -> backend.status(ref)).isInstanceOf(BackendException.NotFound.class);
    assertThatThrownBy(() -> backend.logs(ref, LogQuery.ALL))
        .isInstanceOf(BackendException.NotFound.class);
    backend.cancel(ref);
    assertThatThrownBy(() -> backend.status(new ExternalRef(backend.id(), "../../etc", Map.of())))
        .isInstanceOf(BackendException.NotFound.class);
    assertThat(backend.health().healthy()).isTrue();
  }
}
