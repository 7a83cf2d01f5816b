package io.trainyard.backend.local;

import static io.trainyard.backend.local.LocalBackendRig.shellJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a job cannot do to the gateway's notes and disk, in every sandbox this machine can give (as
 * root: the users sandbox and bubblewrap) and, where the sandbox is what stops a job, without one:
 * it cannot pass a line of its own off as the backend's, its scratch directory is bounded and gone
 * once it ends, and its log is bounded. The users sandbox gets uids no other test uses.
 */
class LocalNotesAndDiskIT {
  private static final String UIDS = "64000-64099";
  private static final String GENUINE_NOTE =
      "[trainyard] master-0 exited with code 1; restarting (1 of 1 restarts)";

  @TempDir java.nio.file.Path temp;
  private LocalBackendRig rig;

  @AfterEach
  void stop() {
    if (rig != null) {
      rig.close();
    }
  }

  private LocalBackend open(String sandbox, String scratchLimit, String logLimit) {
    rig = new LocalBackendRig(temp, sandbox.equals("none"));
    var base = rig.withMaxJobs(4);
    var config =
        new LocalConfig(
                null,
                null,
                false,
                null,
                null,
                base.codeDir(),
                base.secretsDir(),
                4,
                "1s",
                sandbox,
                UIDS,
                temp.resolve("work").toString())
            .withLimits(scratchLimit, logLimit);
    var backend = rig.reopen(config);
    if (!sandbox.equals("auto")) {
      assertThat(backend.sandboxMode().toString()).isEqualTo(sandbox);
    }
    return backend;
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "bubblewrap", "none"})
  void aJobsLinesShapedLikeTheBackendsNotesAreNeverServedOrGivenAsReasonAsTheBackends(
      String sandbox) throws Exception {
    open(sandbox, null, null);
    // On its stdout (through the wrapper), and raw into the log past the wrapper: through the
    // wrapper's own stdout, which only a replica without a sandbox can open.
    var forger =
        String.join(
            "\n",
            "echo '[trainyard] replica restarted: out of memory'",
            "echo ' [TRAINYARD] master-0 exited with code 0'",
            "echo '[trainyard] self forged note' > /proc/self/fd/1",
            "if printf '%s [trainyard] raw forged note\\n' \"$EPOCHREALTIME\" 2>/dev/null"
                + " >> /proc/$PPID/fd/1; then echo raw-write-went-through;"
                + " else echo raw-write-refused; fi",
            "exit 1");

    var ref = rig.submit(shellJob(forger, "restartPolicy: OnFailure\nmaxRestarts: 1", "master: 1"));
    var status = rig.awaitEnd(ref);
    var served = rig.texts(ref, "master-0");

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.restarts()).isEqualTo(1);
    assertThat(served)
        .as("the backend's lines among %s", served)
        .filteredOn(LogLineFormat::looksLikeNote)
        .containsExactly(GENUINE_NOTE);
    assertThat(served)
        .filteredOn("[job] [trainyard] replica restarted: out of memory"::equals)
        .hasSize(2);
    assertThat(served).contains("[job]  [TRAINYARD] master-0 exited with code 0");
    assertThat(served).contains("[job] [trainyard] self forged note");
    var raw = served.contains("raw-write-went-through");
    assertThat(raw)
        .as("a sandboxed replica (its own uid) cannot open its wrapper's log")
        .isEqualTo(sandbox.equals("none"));
    if (raw) {
      assertThat(served).contains("[job] [trainyard] raw forged note");
    }
    var reasonLines = List.of(status.reason().split("\n"));
    assertThat(reasonLines.get(0)).isEqualTo("replica master-0 exited with code 1; last lines:");
    assertThat(reasonLines.subList(1, reasonLines.size()))
        .contains("[job] [trainyard] replica restarted: out of memory")
        .filteredOn(LogLineFormat::looksLikeNote)
        .allMatch(GENUINE_NOTE::equals);
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "bubblewrap"})
  void aJobWritingPastTheScratchLimitIsFailedAndItsScratchDirectoryRemoved(String sandbox)
      throws Exception {
    open(sandbox, "1Mi", null);
    var ref =
        rig.submit(
            shellJob(
                "head -c 5000000 /dev/zero > \"$TRAINYARD_ATTEMPT_DIR/big\" && echo wrote;"
                    + " sleep 60",
                "",
                "master: 1"));
    var scratch = rig.workDir(ref);

    var started = System.nanoTime();
    var status = rig.awaitEnd(ref);
    var took = (System.nanoTime() - started) / 1_000_000;

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason()).isEqualTo("scratch directory grew past 1 MiB (scratchLimit)");
    assertThat(took).as("ms to notice, with checks every 2 s").isLessThan(10_000);
    LocalBackendRig.awaitGone(scratch);
    // The logs are the user's and stay.
    assertThat(rig.texts(ref, "master-0")).contains("wrote");
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "bubblewrap", "none"})
  void aJobsScratchDirectoryIsGoneOnceItEndsWhateverItLeftThere(String sandbox) throws Exception {
    open(sandbox, null, null);
    var script =
        String.join(
            "\n",
            "cd \"$TRAINYARD_ATTEMPT_DIR\"",
            "echo output > result.txt",
            "mkdir -p locked/inner && touch locked/inner/f && ln -s / root-link",
            "chmod 000 locked/inner locked",
            "echo done");
    var ref = rig.submit(shellJob(script, "", "master: 1, worker: 1"));
    var scratch = rig.workDir(ref);

    assertThat(rig.awaitEnd(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);

    LocalBackendRig.awaitGone(scratch);
    assertThat(scratch.getParent()).isDirectory();
    assertThat(rig.texts(ref, "master-0")).contains("done");
    assertThat(java.nio.file.Path.of("/bin/sh")).exists(); // the link was removed, not followed
  }

  @Test
  void aReplicasLogStopsAtTheLogLimitAcrossRestartsSayingSoOnce() throws Exception {
    open("auto", null, "64Ki");
    var chatty =
        "seq -f 'line %04g xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' 1 2000;"
            + " echo the-end; exit 1";
    // The job cannot raise its wrapper's budget through its environment.
    var spec = "restartPolicy: OnFailure\nmaxRestarts: 1\nenv: {ty_log_budget: '999999999'}";
    var ref = rig.submit(shellJob(chatty, spec, "master: 1"));

    var status = rig.awaitEnd(ref);
    var served = rig.texts(ref, "master-0");
    var logFile = rig.attemptDir(ref).resolve("master-0.log");

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.restarts()).isEqualTo(1);
    assertThat(Files.size(logFile)).isBetween(64L << 10, (64L << 10) + 200);
    assertThat(served).doesNotContain("the-end").anyMatch(l -> l.startsWith("line 0001 "));
    assertThat(served)
        .filteredOn(LogLineFormat::looksLikeNote)
        .containsExactly(
            "[trainyard] the log of master-0 reached 64 KiB (logLimit): its later output is not"
                + " kept",
            GENUINE_NOTE);
  }

  @Test
  void aLogWrittenAroundTheWrapperPastTheLimitFailsTheAttempt() throws Exception {
    // Only a replica without a sandbox (or a non-root bubblewrap's) can open its wrapper's log.
    open("none", null, "64Ki");
    var ref =
        rig.submit(
            shellJob(
                "head -c 3000000 /dev/zero | tr '\\0' x | fold -w 100 >> /proc/$PPID/fd/1;"
                    + " sleep 60",
                "",
                "master: 1"));

    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason())
        .isEqualTo(
            "the log of replica master-0 grew past 64 KiB (logLimit): written around the"
                + " replica's wrapper");
  }
}
