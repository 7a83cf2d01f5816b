package io.trainyard.backend.local;

import static io.trainyard.backend.local.LocalBackendRig.shellJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.InstanceShapes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hostile job against the sandboxes: it looks for the gateway's environment, data directory,
 * keys, other teams' secrets and loopback ports, and must find none of them, in every sandbox this
 * machine can give (CI runs as root, where {@code auto} is the users sandbox; bubblewrap is run
 * explicitly as well).
 */
class LocalSandboxIT {
  private static final String ENV_MARKER = "gateway-env-marker-4711";
  private static final String KEY_MARKER = "dev-issuer-private-key-marker";
  private static final String SECRET_MARKER = "other-team-secret-marker";

  @TempDir Path temp;
  private LocalBackendRig rig;
  private Process gatewayLike;
  private ServerSocket adminPort;

  @BeforeEach
  void plantTheGatewaysSecrets() throws IOException {
    rig = new LocalBackendRig(temp);
    var data = temp.resolve("data");
    Files.createDirectories(data.resolve("keys"));
    Files.writeString(data.resolve("keys/dev-issuer.pem"), KEY_MARKER);
    Files.writeString(data.resolve("trainyard.mv.db"), KEY_MARKER);
    Files.createDirectories(temp.resolve("secrets/other-team/db"));
    Files.writeString(temp.resolve("secrets/other-team/db/password"), SECRET_MARKER);
    // What the umask would leave: readable by all, so only the sandbox can keep the job out.
    for (var path : List.of(data, data.resolve("keys"), temp.resolve("secrets"))) {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    // A process of the gateway's user carrying a credential in its environment, as the gateway's
    // own JVM does (the database password, an S3 secret).
    var builder = new ProcessBuilder("sleep", "120");
    builder.environment().put("TRAINYARD_DB_PASSWORD", ENV_MARKER);
    gatewayLike = builder.start();
    adminPort = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
  }

  @AfterEach
  void stop() throws IOException {
    rig.close();
    gatewayLike.destroyForcibly();
    adminPort.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "bubblewrap"})
  void aHostileJobFindsNothingOfTheGateway(String sandbox) throws Exception {
    // The code directory holds the data directory, as in zero-config mode (codeDir . and ./data).
    var config =
        new LocalConfig(
            null,
            null,
            false,
            null,
            null,
            temp.toString(),
            temp.resolve("secrets").toString(),
            4,
            "1s",
            sandbox,
            null,
            temp.resolve("work").toString());
    var backend = rig.reopen(config);
    // Another team's job listening on its own loopback: not reachable from this attempt either.
    int neighbourPort;
    try (var free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      neighbourPort = free.getLocalPort();
    }
    var neighbour =
        rig.submit(
            shellJob(
                "python3 -m http.server $NPORT --bind 127.0.0.1 >/dev/null 2>&1 &"
                    + " until (exec 3<>/dev/tcp/127.0.0.1/$NPORT) 2>/dev/null; do sleep 0.1; done;"
                    + " echo listening; wait",
                "env: {NPORT: '" + neighbourPort + "'}",
                "master: 1"));
    var deadline = System.nanoTime() + 20_000_000_000L;
    while (!rig.texts(neighbour, "master-0").contains("listening")) {
      assertThat(System.nanoTime()).as("the neighbour listens").isLessThan(deadline);
      Thread.sleep(50);
    }
    // The gateway's data directory, its secrets, the ports on its loopback and every
    // /proc/*/environ.
    var probe =
        String.join(
            "\n",
            "echo probe-ran uid=$(id -u)",
            // The wrapper's first environment is what the sandbox tools had: never the job's.
            "tr '\\0' '\\n' < /proc/$PPID/environ | grep -q '^PROBE_MARK='"
                + " && echo 'FOUND the job env among the sandbox tools'",
            "[ \"$PROBE_MARK\" = job-env-4712 ] && echo job-env-set",
            "touch \"$TRAINYARD_ATTEMPT_DIR/own\" && echo own-dir-writable",
            "for f in /proc/[0-9]*/environ; do",
            "  env=$(tr '\\0' '\\n' < \"$f\" 2>/dev/null) || continue",
            // The job's own processes, or its wrapper's first environment: the tools' PATH only
            // (and the PWD bwrap adds).
            "  tools=$(printf '%s\\n' \"$env\" | grep -v '^PWD=' | grep -vxF '"
                + ReplicaLauncher.TOOL_ENV.entrySet().iterator().next()
                + "')",
            "  [ -z \"$tools\" ] && continue",
            "  case $env in *TRAINYARD_JOB_ID=*) ;; *) echo \"FOUND foreign environ $f\";; esac",
            "  case $env in *" + ENV_MARKER + "*) echo \"FOUND gateway env in $f\";; esac",
            "done",
            "for d in \"$DATA\" \"$DATA/keys\" \"$SECRETS\" \"$SECRETS/other-team/db\"; do",
            "  ls \"$d\" 2>/dev/null | sed 's/^/FOUND listed /'",
            "done",
            "grep -rl -e "
                + KEY_MARKER
                + " -e "
                + SECRET_MARKER
                + " \"$DATA\" \"$SECRETS\""
                + " 2>/dev/null | sed 's/^/FOUND read /'",
            "for p in $PORTS; do",
            "  if timeout 2 bash -c \"exec 3<>/dev/tcp/127.0.0.1/$p\" 2>/dev/null; then"
                + " echo \"FOUND port $p\"; fi",
            "done",
            "echo probe-done");
    var job =
        shellJob(
            probe,
            "env: {PROBE_MARK: job-env-4712, DATA: "
                + temp.resolve("data")
                + ", SECRETS: "
                + temp.resolve("secrets")
                + ", PORTS: '"
                + adminPort.getLocalPort()
                + " "
                + neighbourPort
                + "'}",
            "master: 1");

    var ref = rig.submit(job);
    var status = rig.awaitEnd(ref);
    var output = rig.texts(ref, "master-0");

    assertThat(status.phase()).as(String.join("\n", output)).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(output).contains("own-dir-writable", "job-env-set", "probe-done");
    assertThat(output).noneMatch(line -> line.startsWith("FOUND"));
    assertThat(output)
        .filteredOn(line -> line.startsWith("probe-ran"))
        .singleElement()
        .satisfies(
            line -> {
              // As root, bubblewrap runs the replicas as the attempt's uid too, never as root.
              assertThat(line).isNotEqualTo("probe-ran uid=0");
            });
    // The replica's scratch directory is gone once the attempt is over.
    LocalBackendRig.awaitGone(rig.workDir(ref));
  }

  @Test
  void inBubblewrapTheExampleRendezvousesOverLoopbackAndACancelStopsEveryProcess()
      throws Exception {
    var backend =
        rig.reopen(rig.config().withSandbox("bubblewrap", temp.resolve("work").toString()));
    var example =
        TestJobs.file(TestJobs.REPO_ROOT.resolve("examples/linear-regression.yaml")).spec();

    var trained = rig.submit(TestJobs.job(example));
    var status = rig.awaitEnd(trained);
    assertThat(status.phase())
        .as(status.reason() + "\n" + rig.texts(trained, "worker-0"))
        .isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(rig.texts(trained, "master-0")).anyMatch(l -> l.startsWith("learned weights"));

    var sleeper = rig.submit(shellJob("sleep 300 & wait", "", "master: 1, worker: 1"));
    var members = new java.util.ArrayList<ProcessHandle>();
    var deadline = System.nanoTime() + 10_000_000_000L;
    while (members.stream().noneMatch(p -> p.info().command().orElse("").endsWith("sleep"))) {
      assertThat(System.nanoTime()).as("the sleeps start").isLessThan(deadline);
      Thread.sleep(50);
      members.clear();
      var state = new AttemptFiles(rig.attemptDir(sleeper)).readState().orElseThrow();
      for (var replica : state.replicas().values()) {
        if (replica.pid() != null) {
          ProcessHandle.of(replica.pid()).ifPresent(h -> members.addAll(ProcessTree.members(h)));
        }
      }
    }
    backend.cancel(sleeper);

    assertThat(rig.awaitEnd(sleeper).phase()).isEqualTo(BackendPhase.STOPPED);
    assertThat(members).noneMatch(ProcessTree::isRunning);
    var holder = rig.backendLease(sleeper).holderPid();
    assertThat(ProcessHandle.of(holder).filter(ProcessTree::isRunning)).isEmpty();
  }

  @Test
  void theUsersSandboxKillsWhatEscapedTheProcessTreeAndReusesNoLiveUid() throws Exception {
    var backend = rig.backend();
    org.junit.jupiter.api.Assumptions.assumeTrue(backend.sandboxMode() == SandboxMode.USERS);
    // A daemon that leaves the replica's process tree (double fork, new session).
    var escapee =
        "setsid bash -c 'echo $$ > \"$TRAINYARD_ATTEMPT_DIR/daemon.pid\"; exec sleep 300'"
            + " >/dev/null 2>&1 &"
            + " until [ -s \"$TRAINYARD_ATTEMPT_DIR/daemon.pid\" ]; do sleep 0.05; done;"
            + " echo \"daemon $(cat \"$TRAINYARD_ATTEMPT_DIR/daemon.pid\")\"; exit 0";
    var first = rig.submit(shellJob(escapee, "", "master: 1"));
    var second = rig.submit(shellJob("sleep 30", "", "master: 1"));
    assertThat(rig.awaitEnd(first).phase()).isEqualTo(BackendPhase.SUCCEEDED);

    var daemon =
        Long.parseLong(
            rig.texts(first, "master-0").stream()
                .filter(l -> l.startsWith("daemon "))
                .findFirst()
                .orElseThrow()
                .substring("daemon ".length()));
    assertThat(ProcessHandle.of(daemon).filter(ProcessTree::isRunning)).isEmpty();
    var firstUid = rig.backendLease(first).uid();
    var secondUid = rig.backendLease(second).uid();
    assertThat(firstUid).isNotEqualTo(secondUid);
    assertThat(List.of(firstUid, secondUid)).allMatch(config().uids()::contains);
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "bubblewrap"})
  void aJobsLoaderVariablesNeverRunCodeInTheSandboxTools(String sandbox) throws Exception {
    var gcc = Path.of("/usr/bin/gcc");
    Assumptions.assumeTrue(Files.isExecutable(gcc), "needs gcc to build the preloaded library");
    // A library that, loaded into any program, says who ran it: had nsenter, setpriv or bwrap
    // (root's, or the gateway user's) loaded it, it would run a job's code as them.
    var dir = temp.resolve("preload");
    Files.createDirectories(dir);
    var marks = temp.resolve("marks.txt");
    Files.writeString(
        dir.resolve("evil.c"),
        "#include <stdio.h>\n#include <unistd.h>\n"
            + "__attribute__((constructor)) static void said(void) {\n"
            + "  FILE *f = fopen(\""
            + marks
            + "\", \"a\"); if (f) { fprintf(f, \"uid=%d\\n\", (int) getuid()); fclose(f); }\n}\n");
    var built =
        new ProcessBuilder(
                gcc.toString(),
                "-shared",
                "-fPIC",
                "-o",
                dir.resolve("evil.so").toString(),
                dir.resolve("evil.c").toString())
            .inheritIO()
            .start();
    assertThat(built.waitFor()).isZero();
    rig.reopen(rig.config().withSandbox(sandbox, temp.resolve("work").toString()));

    var ref =
        rig.submit(
            shellJob(
                "echo ran",
                "env: {LD_PRELOAD: " + dir.resolve("evil.so") + ", GCONV_PATH: " + dir + "}",
                "master: 1"));

    assertThat(rig.awaitEnd(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(rig.texts(ref, "master-0")).contains("ran");
    assertThat(marks).as("nothing ran the job's library outside the sandbox").doesNotExist();
  }

  @Test
  void theUsersSandboxLeavesNothingOfAnAttemptForTheNextOneOnItsUid() throws Exception {
    var backend = rig.backend();
    Assumptions.assumeTrue(backend.sandboxMode() == SandboxMode.USERS);
    // A process that keeps changing its pid (each generation forks the next and exits), and files
    // in the host's shared writable directories.
    var leaver =
        String.join(
            "\n",
            "setsid bash -c 'h() { sleep 0.005; h & exit 0; }; h' >/dev/null 2>&1 </dev/null &",
            "echo left > /tmp/ty-left-$TRAINYARD_JOB_ID",
            "echo left > /dev/shm/ty-left-$TRAINYARD_JOB_ID",
            "mkdir -p /var/tmp/ty-left-$TRAINYARD_JOB_ID/d && echo left > /var/tmp/ty-left-$TRAINYARD_JOB_ID/d/f",
            "sleep 0.5",
            "exit 0");
    var job = shellJob(leaver, "", "master: 1");
    var ref = rig.submit(job);
    var status = rig.awaitEnd(ref);
    assertThat(status.phase())
        .as(status.reason() + "\n" + rig.texts(ref, "master-0"))
        .isEqualTo(BackendPhase.SUCCEEDED);
    int uid = rig.backendLease(ref).uid();

    // Looked at many times over two seconds: one look can miss a process that lives a few ms.
    int seen = 0;
    for (int look = 0; look < 40; look++) {
      if (ProcessTree.uidsWithProcesses().contains(uid)) {
        seen++;
      }
      Thread.sleep(50);
    }
    assertThat(seen).as("looks that found a process of the attempt's uid").isZero();
    for (var left :
        List.of(
            Path.of("/tmp/ty-left-" + job.jobId()),
            Path.of("/dev/shm/ty-left-" + job.jobId()),
            Path.of("/var/tmp/ty-left-" + job.jobId()))) {
      assertThat(left).doesNotExist();
    }
  }

  @Test
  void noSandboxOutsideDevModeRefusesToStartSayingWhy() {
    var none = rig.config().withSandbox("none", temp.resolve("work").toString());
    var production = new BackendContext(InstanceShapes.NONE, temp.resolve("d2"), Clock.systemUTC());

    assertThatThrownBy(() -> LocalBackend.open(none, production))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refuses to start outside dev mode")
        .hasMessageContaining("the configuration says sandbox: none");
    var dev =
        new BackendContext(
            InstanceShapes.NONE, temp.resolve("d3"), Clock.systemUTC(), true, temp.resolve("d3"));
    try (var backend = LocalBackend.open(none, dev)) {
      assertThat(backend.sandboxMode()).isEqualTo(SandboxMode.NONE);
    }
  }

  @Test
  void aNulInAnEnvValueOrArgIsRejectedAtSubmitAndTakesNoSlot() {
    var backend = rig.backend();
    var envNul =
        TestJobs.job(
            TestJobs.unvalidatedSpec(
                "framework: pytorch\ncommand: [bash, -c, \"true\"]\nenv: {BAD: \"a\\0b\"}\n"
                    + "replicas: {master: 1}\n"));
    var argNul =
        TestJobs.job(
            TestJobs.unvalidatedSpec(
                "framework: pytorch\ncommand: [bash, -c, \"echo \\0\"]\nreplicas: {master: 1}\n"));
    var missing =
        TestJobs.job(
            TestJobs.spec(
                "framework: pytorch\ncommand: [no-such-program-4711]\nreplicas: {master: 1}\n"));

    assertThatThrownBy(() -> backend.submit(envNul))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("BAD contains a NUL character");
    assertThatThrownBy(() -> backend.submit(argNul))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("contains a NUL character");
    assertThatThrownBy(() -> backend.submit(missing))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("'no-such-program-4711'")
        .hasMessageContaining("not found on the replica's PATH");
    for (var job : List.of(envNul, argNul, missing)) {
      assertThat(rig.dataDir.resolve(job.objectName())).doesNotExist();
    }
    assertThat(backend.placements(envNul.spec()).placements().get(0).freeCapacity()).isEqualTo(4);
  }

  @Test
  void aLaunchTheJdkRefusesFailsTheAttemptOnceInsteadOfWedgingIt() {
    // An attempt whose plan slipped past submit's checks, as one written by an older gateway.
    var job =
        TestJobs.job(
            TestJobs.unvalidatedSpec(
                "framework: pytorch\ncommand: [bash, -c, \"true\"]\nenv: {BAD: \"a\\0b\"}\n"
                    + "replicas: {master: 1}\n"));
    var dir = rig.dataDir.resolve(job.objectName());
    var sandbox = Sandbox.choose(config(), false, List.of());
    var lease = sandbox.lease(dir, java.util.Set.of());
    var plan = ReplicaPlanner.withFreePorts().plan(job, Path.of(lease.workDir()));
    var files = new AttemptFiles(dir, Path.of(lease.workDir()));
    files.create();
    files.writeMarker(new AttemptMarker(job.jobId(), 1, job.specHash(), java.time.Instant.now()));
    sandbox.prepare(lease);
    files.writeLease(lease);
    files.writePlan(plan);
    files.writeState(AttemptState.admitting(plan));

    var backend = rig.reopen(config());
    var ref = new io.trainyard.spi.ExternalRef("local", job.objectName(), java.util.Map.of());
    var status = rig.awaitEnd(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason())
        .contains("could not start replica master-0")
        .contains("cannot be passed to a process")
        .doesNotContain("a\u0000b");
    assertThat(backend.placements(job.spec()).placements().get(0).freeCapacity()).isEqualTo(4);
  }

  @Test
  void anAttemptFromBeforeTheSandboxIsNeverStartedAgainUnsandboxed() {
    Assumptions.assumeTrue(rig.backend().sandboxMode() != SandboxMode.NONE);
    var job = shellJob("echo should-not-run", "", "master: 1");
    var dir = rig.dataDir.resolve(job.objectName());
    // As an older gateway left it: no sandbox.json, a replica still to be (re)started.
    var plan = ReplicaPlanner.withFreePorts().plan(job, dir);
    var files = new AttemptFiles(dir);
    files.create();
    files.writeMarker(new AttemptMarker(job.jobId(), 1, job.specHash(), java.time.Instant.now()));
    files.writePlan(plan);
    files.writeState(AttemptState.admitting(plan));

    rig.reopen(config());
    var status =
        rig.awaitEnd(
            new io.trainyard.spi.ExternalRef("local", job.objectName(), java.util.Map.of()));

    assertThat(status.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(status.reason()).contains("started before the local backend was sandboxed");
    assertThat(files.logFile("master-0")).doesNotExist();
  }

  @Test
  void aNetworkHolderStaysWhileItsNamespaceIsUsedAndThenLeavesByItself() throws Exception {
    var sandbox =
        Sandbox.choose(config(), false, List.of())
            .withHolderLooks(java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(1));
    org.junit.jupiter.api.Assumptions.assumeTrue(sandbox.mode() != SandboxMode.NONE);
    var holder = sandbox.startNetwork();
    var joined =
        new ProcessBuilder("nsenter", "--net=/proc/" + holder.pid() + "/ns/net", "--", "sleep", "4")
            .start();

    while (joined.isAlive()) {
      assertThat(ProcessTree.isRunning(holder)).as("the holder while a process uses it").isTrue();
      Thread.sleep(100);
    }
    var deadline = System.nanoTime() + 30_000_000_000L;
    while (ProcessTree.isRunning(holder)) {
      assertThat(System.nanoTime()).as("the idle holder leaves").isLessThan(deadline);
      Thread.sleep(100);
    }
    assertThat(joined.exitValue()).isZero();
  }

  private LocalConfig config() {
    return rig.config();
  }
}
