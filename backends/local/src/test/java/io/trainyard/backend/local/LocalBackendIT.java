package io.trainyard.backend.local;

import static io.trainyard.backend.local.LocalBackendRig.shellJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's life on real processes: training, logs, failures, restarts, stops. */
class LocalBackendIT {
  @TempDir Path temp;
  private LocalBackendRig rig;
  private LocalBackend backend;

  @BeforeEach
  void open() {
    rig = new LocalBackendRig(temp);
    backend = rig.backend();
  }

  @AfterEach
  void stopEverything() {
    rig.close();
  }

  /**
   * The gateway asks a backend that answers from memory on the quoting caller's own thread, with no
   * deadline: placements must not wait for a supervisor a tick (or a hung process) holds.
   */
  @Test
  void placementsAnswerFromMemoryWhileASupervisorIsBusy() throws Exception {
    assertThat(backend.placementsFromMemory()).isTrue();
    var ref = rig.submit(shellJob("exec sleep 60", "", "master: 1"));
    var supervisor = backend.attempt(ref.name()).orElseThrow();
    var held = new java.util.concurrent.CountDownLatch(1);
    var release = new java.util.concurrent.CountDownLatch(1);
    var holder =
        new Thread(
            () -> {
              synchronized (supervisor) {
                held.countDown();
                try {
                  release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            });
    holder.start();
    try {
      assertThat(held.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      var spec = shellJob("true", "", "master: 1").spec();
      var answer =
          java.util.concurrent.CompletableFuture.supplyAsync(() -> backend.placements(spec));
      // The running attempt is counted: one fewer job fits than the configuration allows.
      assertThat(answer.get(10, java.util.concurrent.TimeUnit.SECONDS).placements())
          .singleElement()
          .satisfies(
              p -> assertThat(p.freeCapacity()).isEqualTo(rig.config().maxConcurrentJobs() - 1));
    } finally {
      release.countDown();
      holder.join();
    }
    backend.cancel(ref);
    rig.awaitEnd(ref);
  }

  @Test
  void theExampleTrainsOnTwoReplicasTalkingThroughMasterAddrAndPort() throws Exception {
    var spec = TestJobs.file(TestJobs.REPO_ROOT.resolve("examples/linear-regression.yaml")).spec();
    var events = new CopyOnWriteArrayList<ExternalRef>();
    backend.events(events::add);
    assertThat(backend.placements(spec).placements()).hasSize(1);

    var ref = rig.submit(TestJobs.job(spec));
    List<LogLine> followed;
    try (var stream = backend.logs(ref, new LogQuery(null, null, true))) {
      followed = LocalBackendRig.readAll(stream);
    }

    var status = backend.status(ref);
    assertThat(status.phase()).as(status.reason()).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(status.startedAt()).isNotNull();
    assertThat(status.endedAt()).isAfterOrEqualTo(status.startedAt());
    assertThat(status.restarts()).isZero();
    assertThat(events).contains(ref);
    assertThat(followed).extracting(LogLine::replica).contains("master-0", "worker-0");

    var master = rig.texts(ref, "master-0");
    var worker = rig.texts(ref, "worker-0");
    assertThat(master).anyMatch(l -> l.startsWith("epoch 20 loss "));
    assertThat(master).anyMatch(l -> l.startsWith("learned weights"));
    assertThat(worker).contains("[rank 1] connected to rank 0 at 127.0.0.1:" + masterPort(ref));
    assertThat(lossOf(master, 20)).isLessThan(lossOf(master, 1) / 100);
    assertThat(followed).extracting(LogLine::text).containsAll(master).containsAll(worker);
    assertThat(rig.lines(ref, LogQuery.ALL))
        .hasSize(master.size() + worker.size())
        .extracting(LogLine::at)
        .isSortedAccordingTo(Instant::compareTo);
  }

  @Test
  void sinceReturnsOnlyLaterLines() throws Exception {
    var ref =
        rig.submit(
            shellJob("echo early; sleep 0.3; echo late", "restartPolicy: Never", "master: 1"));
    rig.awaitEnd(ref);
    var all = rig.lines(ref, LogQuery.ALL);
    var lateAt = all.get(1).at();

    var since = rig.lines(ref, new LogQuery("master-0", lateAt, false));

    assertThat(all).extracting(LogLine::text).containsExactly("early", "late");
    assertThat(since).extracting(LogLine::text).containsExactly("late");
  }

  @Test
  void aReplicaThatFailsForGoodFailsTheJobAndStopsTheOthers() throws Exception {
    var script =
        """
        if [ "$TRAINYARD_REPLICA" = worker-0 ]; then
          sleep 0.5; for i in 1 2 3 4 5 6 7; do echo "line $i"; done; exit 3
        fi
        echo "master pid $$"; exec sleep 60
        """;
    var ref = rig.submit(shellJob(script, "restartPolicy: Never", "master: 1, worker: 1"));

    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason())
        .startsWith("replica worker-0 exited with code 3; last lines:")
        .contains("line 3", "line 7")
        .doesNotContain("line 2");
    var masterPid =
        Long.parseLong(
            rig.texts(ref, "master-0").stream()
                .filter(l -> l.startsWith("master pid "))
                .findFirst()
                .orElseThrow()
                .substring("master pid ".length()));
    assertThat(ProcessHandle.of(masterPid).filter(ProcessTree::isRunning)).isEmpty();
  }

  @Test
  void aFailedReplicaIsRestartedUpToMaxRestartsInTotal() throws Exception {
    var ref =
        rig.submit(
            shellJob(
                "echo failing; exit 1", "restartPolicy: OnFailure\nmaxRestarts: 2", "master: 1"));

    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.restarts()).isEqualTo(2);
    assertThat(status.reason()).startsWith("replica master-0 exited with code 1");
    assertThat(rig.texts(ref, "master-0")).filteredOn("failing"::equals).hasSize(3);
    assertThat(rig.texts(ref, "master-0"))
        .contains(
            "[trainyard] master-0 exited with code 1; restarting (1 of 2 restarts)",
            "[trainyard] master-0 exited with code 1; restarting (2 of 2 restarts)");
  }

  @Test
  void eachRestartPolicyDecidesWhatIsRestarted() {
    var failsOnceWithCode1 =
        """
        runs="$TRAINYARD_ATTEMPT_DIR/runs"
        [ -f "$runs" ] && exit 0
        echo run > "$runs"; exit 1
        """;
    var failsOnceBySignal = failsOnceWithCode1.replace("exit 1", "kill -KILL $$");
    var onFailure =
        rig.submit(
            shellJob(failsOnceWithCode1, "restartPolicy: OnFailure\nmaxRestarts: 1", "master: 1"));
    var signal =
        rig.submit(
            shellJob(failsOnceBySignal, "restartPolicy: ExitCode\nmaxRestarts: 1", "master: 1"));
    var ownError =
        rig.submit(
            shellJob(failsOnceWithCode1, "restartPolicy: ExitCode\nmaxRestarts: 5", "master: 1"));
    var never =
        rig.submit(shellJob("exit 143", "restartPolicy: Never\nmaxRestarts: 5", "master: 1"));

    assertThat(rig.awaitEnd(onFailure))
        .extracting(BackendStatus::phase, BackendStatus::restarts)
        .containsExactly(BackendPhase.SUCCEEDED, 1);
    // ExitCode, as on Kubeflow: 128+n (a signal) is retryable, a program's own 1-127 is not.
    assertThat(rig.awaitEnd(signal))
        .extracting(BackendStatus::phase, BackendStatus::restarts)
        .containsExactly(BackendPhase.SUCCEEDED, 1);
    assertThat(rig.awaitEnd(ownError))
        .extracting(BackendStatus::phase, BackendStatus::restarts)
        .containsExactly(BackendPhase.FAILED, 0);
    assertThat(rig.awaitEnd(never))
        .extracting(BackendStatus::phase, BackendStatus::restarts)
        .containsExactly(BackendPhase.FAILED, 0);
  }

  @Test
  void cancelStopsTheWholeProcessTree() throws Exception {
    var ref =
        rig.submit(
            shellJob(
                // Written whole, then renamed: the test must never read a half-written file.
                "sleep 300 & p=\"$TRAINYARD_ATTEMPT_DIR/grandchild.pid\"; echo $! > \"$p.$$\";"
                    + " mv \"$p.$$\" \"$p\"; wait",
                "",
                "master: 1, worker: 1"));
    var pidFile = rig.workDir(ref).resolve("grandchild.pid");
    LocalBackendRig.awaitFile(pidFile);
    var grandchild = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).get();
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.RUNNING);

    backend.cancel(ref);
    var status = rig.awaitEnd(ref);
    backend.cancel(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.STOPPED);
    assertThat(status.reason()).isEqualTo("stopped on request");
    assertThat(ProcessTree.isRunning(grandchild)).isFalse();
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.STOPPED);
  }

  @Test
  void aReplicaIgnoringSigtermIsKilledAfterTheGracePeriod() {
    var script =
        "trap '' TERM; echo ready > \"$TRAINYARD_ATTEMPT_DIR/ready\";"
            + " while true; do sleep 0.1; done";
    var ref = rig.submit(shellJob(script, "", "master: 1"));
    LocalBackendRig.awaitFile(rig.workDir(ref).resolve("ready"));

    var before = System.nanoTime();
    backend.cancel(ref);
    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.STOPPED);
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .isGreaterThanOrEqualTo(rig.config().killGrace());
  }

  @Test
  void maxRuntimeStopsAJobThatRunsTooLong() {
    var ref = rig.submit(shellJob("sleep 30", "maxRuntime: 1s", "master: 1"));

    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason()).isEqualTo("exceeded maxRuntime 1s");
  }

  private String masterPort(ExternalRef ref) {
    return new AttemptFiles(rig.attemptDir(ref))
        .readPlan()
        .orElseThrow()
        .replicas()
        .get(0)
        .env()
        .get("MASTER_PORT");
  }

  private static double lossOf(List<String> lines, int epoch) {
    var prefix = "epoch " + epoch + " loss ";
    return lines.stream()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length())))
        .findFirst()
        .orElseThrow();
  }
}
