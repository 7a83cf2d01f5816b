package io.trainyard.backend.local;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.ObjectNames;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Subscription;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each replica of a job as a process on the gateway's own host, with the environment the
 * Kubeflow Training Operator would give its pod. Everything about an attempt lives in its directory
 * under the context's data directory, so a backend opened by a restarted gateway adopts the
 * attempts still running. One poller thread watches every live attempt; another measures their
 * scratch directories.
 */
public final class LocalBackend implements TrainingBackend {
  private static final Logger LOG = LoggerFactory.getLogger(LocalBackend.class);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(200);

  private final LocalConfig config;
  private final BackendContext context;
  private final Duration pollInterval;
  private final LocalPlacements placements;
  private final ReplicaPlanner planner;
  private final Sandbox sandbox;
  private final ReplicaLauncher launcher;
  private final LocalSecrets secrets;
  private final Map<String, AttemptSupervisor> attempts = new ConcurrentHashMap<>();
  private final List<BackendEventListener> listeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService poller;
  private final ScheduledExecutorService scratchWalker;
  private final Object submitLock = new Object();
  private volatile boolean closed;

  private LocalBackend(LocalConfig config, BackendContext context, Duration pollInterval) {
    this.config = config;
    this.context = context;
    this.pollInterval = pollInterval;
    this.placements = new LocalPlacements(config);
    this.planner = ReplicaPlanner.withFreePorts();
    this.sandbox =
        Sandbox.choose(
            config,
            context.devMode(),
            List.of(context.gatewayDataDir(), context.dataDir(), config.secretsPath()));
    this.sandbox.seal();
    this.launcher = new ReplicaLauncher(config.codePath(), System.getenv(), sandbox);
    this.secrets = new LocalSecrets(config.secretsPath());
    this.poller = daemonThread("trainyard-local-" + config.id());
    // Its own thread: a walk of a scratch directory with millions of files delays no tick.
    this.scratchWalker = daemonThread("trainyard-local-" + config.id() + "-scratch");
  }

  private static ScheduledExecutorService daemonThread(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          var thread = new Thread(r, name);
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Opens the backend: adopts the live attempts in the data directory and starts watching. */
  public static LocalBackend open(LocalConfig config, BackendContext context) {
    return open(config, context, POLL_INTERVAL);
  }

  static LocalBackend open(LocalConfig config, BackendContext context, Duration pollInterval) {
    var backend = new LocalBackend(config, context, pollInterval);
    LOG.info(
        "local backend {}: replicas run in the {} sandbox", config.id(), backend.sandbox.mode());
    backend.adoptLiveAttempts();
    backend.poller.scheduleWithFixedDelay(
        backend::tickAll, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    backend.scratchWalker.scheduleWithFixedDelay(
        backend::measureAll, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    return backend;
  }

  @Override
  public String kind() {
    return LocalBackendFactory.KIND;
  }

  @Override
  public String id() {
    return config.id();
  }

  @Override
  public Proposals placements(JobSpec spec) {
    return placements.propose(spec, config.maxConcurrentJobs() - liveAttempts());
  }

  /**
   * The configuration and a count of the attempts in memory ({@link AttemptSupervisor#isTerminal}
   * takes no lock a tick could hold): nothing to wait for.
   */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  /** Replicas get them in their process environment, which only they (and root) can read. */
  @Override
  public boolean deliversGatewaySecrets() {
    return true;
  }

  /** Unsandboxed only: every sandbox gives each attempt a network namespace of its own. */
  @Override
  public boolean sharesGatewayNetwork() {
    return sandbox.mode() == SandboxMode.NONE;
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    if (closed) {
      throw new BackendException.Retryable("the local backend is closed", null);
    }
    var files = filesOf(job.objectName());
    try {
      synchronized (submitLock) {
        var marker = files.readMarker();
        if (marker.isPresent()) {
          requireSameJob(job, marker.get());
          var existing = attempt(job.objectName());
          if (existing.isPresent()) {
            return ref(job.objectName());
          }
        }
        startAttempt(job, files, marker.isEmpty());
        return ref(job.objectName());
      }
    } catch (UncheckedIOException e) {
      // The message names the attempt, not where the gateway keeps it.
      LOG.warn("local attempt {} cannot be written: {}", job.objectName(), e.toString());
      throw new BackendException.Retryable(
          "cannot write the directory of attempt " + job.objectName(), e);
    }
  }

  private void startAttempt(BackendJob job, AttemptFiles files, boolean writeMarker) {
    var reasons = placements.reasonsAgainst(job.spec());
    if (!reasons.isEmpty()) {
      throw new BackendException.Rejected(String.join("; ", reasons), null);
    }
    if (liveAttempts() >= config.maxConcurrentJobs()) {
      throw new BackendException.CapacityUnavailable(
          "the local backend runs at most " + config.maxConcurrentJobs() + " jobs at a time", null);
    }
    // Refuse a missing secret before anything is written or started.
    job.spec().roleSpecs().forEach(role -> secrets.resolve(job.team(), role.secretEnv()));
    if (!Files.isDirectory(config.codePath())) {
      throw new BackendException.Rejected("the local backend's codeDir is not a directory", null);
    }
    SandboxLease lease;
    try {
      lease = sandbox.lease(files.dir(), uidsInUse());
    } catch (IllegalStateException e) {
      throw new BackendException.CapacityUnavailable(e.getMessage(), null);
    }
    var plan = planner.plan(job, Path.of(lease.workDir()));
    // What can never start is refused now, not retried on every tick while it holds a slot.
    for (var replica : plan.replicas()) {
      var why = launcher.unlaunchable(replica, secrets.resolve(job.team(), replica.secretEnv()));
      if (why != null) {
        throw new BackendException.Rejected(why, null);
      }
    }
    var attemptFiles = new AttemptFiles(files.dir(), Path.of(lease.workDir()));
    // Written inside the map's lock for this name, so a status() reading the half-written
    // directory meanwhile cannot load a second supervisor that would start the replicas again.
    var supervisor =
        attempts.compute(
            job.objectName(),
            (name, previous) -> {
              attemptFiles.create();
              if (writeMarker) {
                attemptFiles.writeMarker(
                    new AttemptMarker(
                        job.jobId(), job.attempt(), job.specHash(), context.clock().instant()));
              }
              sandbox.prepare(lease);
              attemptFiles.writeLease(lease);
              attemptFiles.writePlan(plan);
              attemptFiles.writeGatewayEnv(job.gatewaySecretEnv());
              var state = AttemptState.admitting(plan);
              attemptFiles.writeState(state);
              return supervisor(attemptFiles, plan, state, lease);
            });
    supervisor.start();
  }

  private static void requireSameJob(BackendJob job, AttemptMarker marker) {
    if (!marker.jobId().equals(job.jobId())) {
      throw new BackendException.Rejected(
          job.objectName() + " already holds an attempt of job " + marker.jobId(), null);
    }
    if (!marker.specHash().equals(job.specHash())) {
      throw new BackendException.Rejected(
          job.objectName() + " was started from a different spec (hash " + marker.specHash() + ")",
          null);
    }
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return require(ref).status();
  }

  @Override
  public void cancel(ExternalRef ref) {
    if (isOurs(ref)) {
      attempt(ref.name()).ifPresent(AttemptSupervisor::cancel);
    }
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    var attempt = require(ref);
    var names = attempt.plan().replicas().stream().map(ReplicaPlan::name).toList();
    if (query.replica() != null && !names.contains(query.replica())) {
      throw new BackendException.NotFound(
          "no replica " + query.replica() + " in " + ref.name() + "; replicas: " + names, null);
    }
    var readers =
        names.stream()
            .filter(n -> query.replica() == null || query.replica().equals(n))
            .flatMap(
                n ->
                    java.util.stream.Stream.of(
                        new ReplicaLogReader(n, attempt.files().logFile(n)),
                        ReplicaLogReader.notes(n, attempt.files().notesFile(n))))
            .toList();
    return attempt
        .scrubber()
        .scrub(
            new LocalLogStream(
                readers,
                query.since(),
                query.follow(),
                () -> closed || attempt.isTerminal(),
                pollInterval));
  }

  @Override
  public Subscription events(BackendEventListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public BackendHealth health() {
    if (closed) {
      return BackendHealth.unhealthy("closed");
    }
    var missing = ReplicaLauncher.missingPrerequisite();
    if (missing != null) {
      return BackendHealth.unhealthy(missing);
    }
    if (!Files.isDirectory(config.codePath())) {
      return BackendHealth.unhealthy("the local backend's codeDir is not a directory");
    }
    return BackendHealth.ok();
  }

  /** Stops watching; running jobs keep running and the next backend opened here adopts them. */
  @Override
  public void close() {
    closed = true;
    scratchWalker.shutdownNow();
    poller.shutdownNow();
    try {
      // A tick still writing state must finish before another backend takes the directory over.
      poller.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void tickAll() {
    attempts.forEach(
        (name, attempt) -> {
          try {
            attempt.tick();
          } catch (RuntimeException e) {
            LOG.warn("local attempt {} could not be checked: {}", name, e.toString());
          }
        });
  }

  private void measureAll() {
    attempts.forEach(
        (name, attempt) -> {
          try {
            attempt.measureScratch();
          } catch (RuntimeException e) {
            LOG.warn("local attempt {}: scratch directory not measured: {}", name, e.toString());
          }
        });
  }

  private void adoptLiveAttempts() {
    var dataDir = context.dataDir();
    if (!Files.isDirectory(dataDir)) {
      return;
    }
    try {
      // Holds every attempt's logs: owner-only whatever the umask, before any attempt exists.
      Files.setPosixFilePermissions(
          dataDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the local backend's directory owner-only", e);
    }
    try (var dirs = Files.list(dataDir)) {
      dirs.map(d -> d.getFileName().toString())
          .filter(name -> ObjectNames.jobIdOf(name).isPresent())
          .forEach(this::adopt);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dataDir, e);
    }
  }

  // One unreadable directory must not keep the backend, and every other attempt, from starting.
  private void adopt(String name) {
    try {
      attempt(name);
    } catch (BackendException.Retryable e) {
      LOG.warn("local attempt {} is not adopted: {}", name, e.getMessage());
    }
  }

  private java.util.Set<Integer> uidsInUse() {
    var uids = new java.util.HashSet<Integer>();
    attempts
        .values()
        .forEach(
            a -> {
              var uid = a.liveUid();
              if (uid != null) {
                uids.add(uid);
              }
            });
    return uids;
  }

  /** The sandbox this backend's replicas run in (never {@code auto}). */
  public SandboxMode sandboxMode() {
    return sandbox.mode();
  }

  /** Where the attempt's replicas write their scratch files; for tests. */
  Path workDirOf(ExternalRef ref) {
    return require(ref).files().workDir();
  }

  private int liveAttempts() {
    return (int) attempts.values().stream().filter(a -> !a.isTerminal()).count();
  }

  private AttemptSupervisor require(ExternalRef ref) {
    if (!isOurs(ref)) {
      throw new BackendException.NotFound(ref.name() + " is not an attempt of " + id(), null);
    }
    var attempt =
        attempt(ref.name())
            .orElseThrow(
                () -> new BackendException.NotFound("no local attempt " + ref.name(), null));
    if (!Files.isDirectory(attempt.files().dir())) {
      // Removed behind the backend's back: gone, as a deleted Kubernetes object is, so the
      // gateway ends the job as lost instead of trusting what this backend remembered.
      if (attempt.isTerminal()) {
        attempts.remove(ref.name(), attempt);
      }
      throw new BackendException.NotFound("local attempt " + ref.name() + " was removed", null);
    }
    return attempt;
  }

  private boolean isOurs(ExternalRef ref) {
    // The name becomes a path: only names we could have made are looked up.
    return ref.backendId().equals(id()) && ObjectNames.jobIdOf(ref.name()).isPresent();
  }

  /** The attempt's supervisor, loaded from its directory the first time it is asked for. */
  Optional<AttemptSupervisor> attempt(String name) {
    try {
      return Optional.ofNullable(attempts.computeIfAbsent(name, this::load));
    } catch (UncheckedIOException e) {
      LOG.warn("local attempt {} cannot be read: {}", name, e.toString());
      throw new BackendException.Retryable("cannot read attempt " + name, e);
    }
  }

  private AttemptSupervisor load(String name) {
    var dir = filesOf(name).dir();
    var lease = filesOf(name).readLease();
    var plan = filesOf(name).readPlan();
    var state = filesOf(name).readState();
    if (plan.isEmpty() || state.isEmpty()) {
      return null;
    }
    // An attempt from before sandboxes ran unsandboxed in its own directory, and ends so.
    var theLease =
        lease.orElseGet(() -> new SandboxLease(SandboxMode.NONE, null, dir.toString(), null, null));
    var files = new AttemptFiles(dir, Path.of(theLease.workDir()));
    return supervisor(files, plan.get(), state.get(), theLease);
  }

  private AttemptSupervisor supervisor(
      AttemptFiles files, AttemptPlan plan, AttemptState state, SandboxLease lease) {
    var name = files.objectName();
    return new AttemptSupervisor(
        files,
        plan,
        state,
        lease,
        launcher,
        sandbox,
        secrets,
        context.clock(),
        config.killGrace(),
        DiskChecks.Limits.of(config),
        () -> fire(name));
  }

  private void fire(String name) {
    var ref = ref(name);
    for (var listener : listeners) {
      try {
        listener.changed(ref);
      } catch (RuntimeException e) {
        LOG.warn("event listener failed for {}: {}", name, e.toString());
      }
    }
  }

  private AttemptFiles filesOf(String name) {
    return new AttemptFiles(context.dataDir().resolve(name));
  }

  private ExternalRef ref(String name) {
    return new ExternalRef(id(), name, Map.of());
  }
}
