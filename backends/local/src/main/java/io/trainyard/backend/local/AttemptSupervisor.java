package io.trainyard.backend.local;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.SecretScrubber;
import io.trainyard.spi.spec.RestartPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Drives one attempt from its directory: starts replicas, notices their exits, restarts them within
 * the budget, enforces maxRuntime and the disk limits (scratch directory, replica logs) and stops
 * everything when the attempt ends. All it knows is written to {@code state.json} after every
 * change, so a supervisor created by a later gateway continues where this one stopped. Thread-safe:
 * every method holds the monitor, except that {@link #measureScratch} walks the scratch directory
 * before taking it and {@link #isTerminal} reads the state without it.
 */
final class AttemptSupervisor {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AttemptSupervisor.class);
  private static final int REASON_LINES = 5;

  /** How often the scratch directory is measured at most: see {@link #measureScratch}. */
  static final Duration SCRATCH_CHECK = Duration.ofSeconds(2);

  private final AttemptFiles files;
  private final AttemptPlan plan;
  private final ReplicaLauncher launcher;
  private final Sandbox sandbox;
  private final LocalSecrets secrets;
  private final Clock clock;
  private final Duration killGrace;
  private final Runnable onChange;
  private final DiskChecks disk;
  private final Map<String, ProcessHandle> handles = new HashMap<>();
  // Read and written by the scratch walker's thread alone.
  private long nextScratchCheck = System.nanoTime();
  private ScratchUsage measured;
  private final List<ProcessHandle> doomed = new ArrayList<>();
  private boolean doomedKnown;
  // Written under the monitor; volatile so isTerminal() reads it without waiting for a tick.
  private volatile AttemptState state;
  private SandboxLease lease;

  AttemptSupervisor(
      AttemptFiles files,
      AttemptPlan plan,
      AttemptState state,
      SandboxLease lease,
      ReplicaLauncher launcher,
      Sandbox sandbox,
      LocalSecrets secrets,
      Clock clock,
      Duration killGrace,
      DiskChecks.Limits limits,
      Runnable onChange) {
    this.files = files;
    this.plan = plan;
    this.state = state;
    this.lease = lease;
    this.launcher = launcher;
    this.sandbox = sandbox;
    this.secrets = secrets;
    this.clock = clock;
    this.killGrace = killGrace;
    this.disk = new DiskChecks(files, plan, limits, clock);
    this.onChange = onChange;
  }

  synchronized BackendStatus status() {
    return state.toStatus();
  }

  /**
   * Without the monitor: a tick holds it while it starts or kills processes (a {@code kill -1} or a
   * network namespace's holder may take seconds), and quotes count live attempts through this.
   */
  boolean isTerminal() {
    return state.phase().isTerminal();
  }

  AttemptPlan plan() {
    return plan;
  }

  AttemptFiles files() {
    return files;
  }

  /** The uid the attempt holds in the users sandbox, while it is not over; else null. */
  synchronized Integer liveUid() {
    return state.phase().isTerminal() ? null : lease.uid();
  }

  /** Starts every replica not started yet; the attempt is RUNNING once all are. */
  synchronized void start() {
    if (state.phase() != BackendPhase.ADMITTING || state.ending() != null) {
      return;
    }
    for (var replica : plan.replicas()) {
      if (state.replicas().get(replica.name()).phase() == ReplicaState.Phase.PENDING
          && !launch(replica)) {
        return;
      }
    }
    var now = clock.instant();
    update(state.running(now, plan.maxRuntimeDuration().map(now::plus).orElse(null)));
  }

  /**
   * Measures the scratch directory, without the monitor (a big one takes a while to walk), every
   * {@link #SCRATCH_CHECK} or, when walking it took long, no sooner than four walks' time after the
   * last, so a job with millions of files does not keep the walker busy; the next {@link #tick}
   * acts on what was found. Called by the backend's scratch walker, one thread, never the poller:
   * however long a walk takes, no attempt's tick waits for it.
   */
  void measureScratch() {
    if (System.nanoTime() - nextScratchCheck < 0 || !measuresScratch()) {
      return;
    }
    long started = System.nanoTime();
    var usage = ScratchUsage.measure(files.workDir(), disk.limits().scratch());
    long took = System.nanoTime() - started;
    nextScratchCheck = System.nanoTime() + Math.max(SCRATCH_CHECK.toNanos(), 4 * took);
    synchronized (this) {
      measured = usage;
    }
  }

  private synchronized boolean measuresScratch() {
    return state.phase() == BackendPhase.RUNNING
        && state.ending() == null
        && !files.dir().startsWith(files.workDir()); // an attempt from before, in its own directory
  }

  /** One look at the processes; called by the backend's poller. */
  synchronized void tick() {
    var usage = measured;
    measured = null;
    if (state.phase().isTerminal()) {
      return;
    }
    if (state.ending() != null) {
      continueEnding();
      return;
    }
    if (state.phase() == BackendPhase.ADMITTING) {
      start();
      return;
    }
    if (state.deadline() != null && !clock.instant().isBefore(state.deadline())) {
      beginEnding(BackendPhase.FAILED, "exceeded maxRuntime " + plan.maxRuntime());
      return;
    }
    var overDisk = disk.problem(usage, scrubber());
    if (overDisk != null) {
      beginEnding(BackendPhase.FAILED, overDisk);
      return;
    }
    for (var replica : plan.replicas()) {
      var phase = state.replicas().get(replica.name()).phase();
      if (phase == ReplicaState.Phase.RUNNING && liveHandle(replica.name()).isEmpty()) {
        onExit(replica);
      } else if (phase == ReplicaState.Phase.PENDING) {
        launch(replica); // a restart a previous gateway decided but did not get to
      }
      if (state.ending() != null) {
        return;
      }
    }
    if (state.allSucceeded()) {
      finish(BackendPhase.SUCCEEDED, null);
    }
  }

  /** Stops every replica; the attempt ends STOPPED unless it already ended or is ending. */
  synchronized void cancel() {
    if (state.phase().isTerminal() || state.ending() != null) {
      return;
    }
    beginEnding(BackendPhase.STOPPED, "stopped on request");
  }

  private void onExit(ReplicaPlan replica) {
    var name = replica.name();
    var code = files.readExitCode(name);
    handles.remove(name);
    files
        .exitComplaint(name)
        .ifPresent(text -> files.appendNote(name, clock.instant(), "could not start: " + text));
    if (code.isPresent() && code.getAsInt() == 0) {
      update(
          state.withReplica(
              name, state.replicas().get(name).ended(ReplicaState.Phase.SUCCEEDED, 0)));
      return;
    }
    if (restartable(replica.restartPolicy(), code) && state.restarts() < plan.maxRestarts()) {
      files.appendNote(
          name,
          clock.instant(),
          name
              + " "
              + describe(code)
              + "; restarting ("
              + (state.restarts() + 1)
              + " of "
              + plan.maxRestarts()
              + " restarts)");
      update(state.withRestart(name));
      launch(replica);
      return;
    }
    var exitCode = code.isPresent() ? Integer.valueOf(code.getAsInt()) : null;
    update(
        state.withReplica(
            name, state.replicas().get(name).ended(ReplicaState.Phase.FAILED, exitCode)));
    beginEnding(BackendPhase.FAILED, failureReason(name, code));
  }

  // Kubeflow's ExitCode policy: 1-127 are the program's own errors (permanent), 128+ a signal
  // (retryable); no recorded code means the wrapper was killed, i.e. a signal too.
  private static boolean restartable(RestartPolicy policy, OptionalInt code) {
    return switch (policy) {
      case NEVER -> false;
      case ON_FAILURE, ALWAYS -> true;
      case EXIT_CODE -> code.isEmpty() || code.getAsInt() >= 128;
    };
  }

  /**
   * Removes the attempt's secret values (and credential shapes) from what its replicas printed,
   * before it becomes a failure reason or a served log line: a job that printed its secret must not
   * copy it into the job, its events and the audit log.
   */
  SecretScrubber scrubber() {
    var values = new ArrayList<String>();
    for (var replica : plan.replicas()) {
      try {
        values.addAll(secrets.resolve(plan.team(), replica.secretEnv()).values());
        values.addAll(files.readGatewayEnv().values());
      } catch (BackendException e) {
        // The secret is gone since the launch: nothing of it to find either.
      }
    }
    return SecretScrubber.of(values);
  }

  private String failureReason(String name, OptionalInt code) {
    var lines = scrubber().scrub(String.join("\n", files.lastLines(name, REASON_LINES)));
    var reason = "replica " + name + " " + describe(code);
    return lines.isEmpty() ? reason : reason + "; last lines:\n" + lines;
  }

  private static String describe(OptionalInt code) {
    return code.isPresent()
        ? "exited with code " + code.getAsInt()
        : "ended without an exit code (killed from outside the gateway?)";
  }

  /** Starts one run of {@code replica}; on failure the attempt fails and false is returned. */
  private boolean launch(ReplicaPlan replica) {
    var name = replica.name();
    if (lease.mode() == SandboxMode.NONE && sandbox.mode() != SandboxMode.NONE) {
      // An attempt from before the sandbox (its directory has no lease): its running replicas are
      // followed to their end, but nothing of it is started again unsandboxed.
      beginEnding(
          BackendPhase.FAILED,
          "could not start replica "
              + name
              + ": the attempt was started before the local backend was sandboxed; resubmit the"
              + " job");
      return false;
    }
    try {
      ensureNetwork();
      var values = new java.util.LinkedHashMap<>(files.readGatewayEnv());
      values.putAll(secrets.resolve(plan.team(), replica.secretEnv()));
      var handle = launcher.launch(files, lease, replica, values, disk.logBudget(name));
      handles.put(name, handle);
      var start = handle.info().startInstant().orElse(null);
      update(state.withReplica(name, state.replicas().get(name).running(handle.pid(), start)));
      return true;
    } catch (BackendException e) {
      beginEnding(BackendPhase.FAILED, "could not start replica " + name + ": " + e.getMessage());
      return false;
    } catch (IOException | UncheckedIOException e) {
      // The JDK's message names the gateway's directories; the reason is shown to the job's owner.
      LOG.warn("local attempt {}: replica {} could not start: {}", files.objectName(), name, e);
      beginEnding(
          BackendPhase.FAILED,
          "could not start replica "
              + name
              + ": the sandbox or its process could not be started"
              + " (the gateway's log says why)");
      return false;
    } catch (IllegalArgumentException e) {
      // The JDK refuses this command or environment, and always will: retrying every tick would
      // keep the slot forever. Its message quotes the value, which may be a secret: not repeated.
      beginEnding(
          BackendPhase.FAILED,
          "could not start replica "
              + name
              + ": its command or environment cannot be passed to a process (a NUL character,"
              + " or '=' in a variable name)");
      return false;
    }
  }

  /**
   * Starts the holder of the attempt's network namespace, or a new one when a gateway restart finds
   * it gone; the replicas started from now on join it.
   */
  private void ensureNetwork() throws IOException {
    if (lease.mode() == SandboxMode.NONE) {
      return;
    }
    if (lease.holderPid() != null
        && ProcessTree.find(lease.holderPid(), lease.holderStart()).isPresent()) {
      return;
    }
    var holder = sandbox.startNetwork();
    lease = lease.withHolder(holder.pid(), holder.info().startInstant().orElse(null));
    files.writeLease(lease);
  }

  private Optional<ProcessHandle> liveHandle(String name) {
    var handle = handles.get(name);
    if (handle == null) {
      var replica = state.replicas().get(name);
      if (replica.pid() == null) {
        return Optional.empty();
      }
      var found = ProcessTree.find(replica.pid(), replica.processStart());
      found.ifPresent(h -> handles.put(name, h));
      return found;
    }
    return ProcessTree.isRunning(handle) ? Optional.of(handle) : Optional.empty();
  }

  private void beginEnding(BackendPhase phase, String reason) {
    collectDoomed();
    ProcessTree.terminate(doomed);
    update(state.ending(new AttemptState.Ending(phase, reason, clock.instant().plus(killGrace))));
    continueEnding();
  }

  private void continueEnding() {
    if (!doomedKnown) { // a supervisor that took over an ending from a previous gateway
      collectDoomed();
      ProcessTree.terminate(doomed);
    }
    doomed.removeIf(h -> !ProcessTree.isRunning(h));
    if (doomed.isEmpty()) {
      finish(state.ending().phase(), state.ending().reason());
    } else if (!clock.instant().isBefore(state.ending().killAt())) {
      ProcessTree.kill(doomed);
    }
  }

  private void collectDoomed() {
    doomed.clear();
    for (var name : state.replicas().keySet()) {
      if (state.replicas().get(name).phase() == ReplicaState.Phase.RUNNING) {
        liveHandle(name).ifPresent(h -> doomed.addAll(ProcessTree.members(h)));
      }
    }
    doomedKnown = true;
  }

  private void finish(BackendPhase phase, String reason) {
    handles.clear();
    doomed.clear();
    try {
      sandbox.release(lease, files.dir());
    } catch (RuntimeException e) {
      // The attempt is over either way; what is left is for the operator, not a reason to retry.
      LOG.warn(
          "local attempt {}: sandbox not fully cleaned up: {}", files.objectName(), e.toString());
    }
    update(state.ended(phase, reason, clock.instant()));
  }

  private void update(AttemptState next) {
    state = next;
    files.writeState(next);
    onChange.run();
  }
}
