package io.trainyard.gateway.reconcile;

import io.dropwizard.lifecycle.Managed;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.logging.JobMdc;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import io.trainyard.spi.Subscription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background loop of every gateway replica: leases live jobs from the database and moves each
 * one step along ({@link JobStepper}). A pushed backend event, a new submission or a cancel steps
 * that one job at once ({@link #stepSoon}); a pass over every due job runs at least every resync
 * interval, the safety net for anything a push missed. Leases and fenced writes ({@link
 * JobStore#claim}, {@link JobStore#claimOne}, {@link JobStore#update}) make it safe to run in many
 * replicas. The design is in the package's documentation.
 *
 * <p>Jobs are stepped in one lane per backend (a thread each), so a backend whose calls hang until
 * their timeout — minutes, with an SDK's own retries — holds up only its own jobs: the loop keeps
 * leasing, and a job still being stepped in its lane is left out of the next leases until its step
 * ends.
 */
public final class Reconciler implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
  private static final Duration PURGE_EVERY = Duration.ofHours(1);

  private final JobStore store;
  private final JobStepper stepper;
  private final BackendRegistry backends;
  private final String owner;
  private final Duration lease;
  private final Duration interval;
  private final int batchSize;
  private final boolean targetedSteps;
  private final Clock clock;
  private final Semaphore wake = new Semaphore(0);
  private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
  private final Map<String, ExecutorService> lanes = new ConcurrentHashMap<>();
  private final Set<String> inLane = ConcurrentHashMap.newKeySet();

  /**
   * Jobs a step moved to another backend (a failover), by id, with that backend: stepped there as
   * soon as the step that moved them ends, not at the next pass's turn (with a hundred live jobs a
   * pass of 50 reached them only after three periods).
   */
  private final Map<String, String> movedTo = new ConcurrentHashMap<>();

  /** Jobs with a targeted step queued and not yet begun: more events for them add nothing. */
  private final Set<String> stepQueued = ConcurrentHashMap.newKeySet();

  /** Left attempts whose clean-up is queued in a lane or under way. */
  private final Set<StaleAttempts.Left> cleaning = ConcurrentHashMap.newKeySet();

  private volatile boolean running;
  private boolean stopped;
  private Instant nextPurge = Instant.MIN;
  private volatile Thread thread;

  /**
   * @param owner this replica's name in leases
   * @param lease how long a claimed job stays ours without another pass
   * @param interval the longest wait between passes
   * @param batchSize the most jobs leased in one pass
   * @param targetedSteps whether an event or a submission steps its own job at once (true), or only
   *     wakes a pass over every due job (false: how it was before issue 19, kept to compare)
   */
  public record Settings(
      String owner, Duration lease, Duration interval, int batchSize, boolean targetedSteps) {
    /** Targeted steps on. */
    public Settings(String owner, Duration lease, Duration interval, int batchSize) {
      this(owner, lease, interval, batchSize, true);
    }
  }

  /**
   * Takes QUEUED jobs on to backends in its own order, once per pass before the other jobs are
   * leased (io.trainyard.gateway.queue.QueueDispatcher). Without one, each QUEUED job is re-quoted
   * on its own by {@link JobStepper}.
   */
  public interface Queue {
    /** One dispatch pass as {@code owner}; returns how many jobs were placed. */
    int dispatch(String owner, Duration lease);

    /** Lets go of anything {@code owner} holds, at stop. */
    void release(String owner);
  }

  private Queue queue;

  /**
   * Told of each pass and each job step (e.g. the gateway's metrics), on the thread doing it; must
   * be quick and must not throw.
   */
  public interface Observer {
    Observer NONE =
        new Observer() {
          @Override
          public void passed(Instant at, Duration took) {}

          @Override
          public void stepping(JobRow job, Duration late) {}

          @Override
          public void stepped(JobRow job, Duration took) {}
        };

    /** A pass (queue dispatch and leasing) ended at {@code at}. */
    void passed(Instant at, Duration took);

    /** {@code job}'s step begins, {@code late} after the pass that leased it. */
    void stepping(JobRow job, Duration late);

    /** {@code job}'s step ended. */
    void stepped(JobRow job, Duration took);
  }

  private volatile Observer observer = Observer.NONE;

  public Reconciler(
      JobStore store,
      JobStepper stepper,
      BackendRegistry backends,
      Settings settings,
      Clock clock) {
    this.store = store;
    this.stepper = stepper;
    stepper.onMoved(movedTo::put);
    this.backends = backends;
    this.owner = settings.owner();
    this.lease = settings.lease();
    this.interval = settings.interval();
    this.batchSize = settings.batchSize();
    this.targetedSteps = settings.targetedSteps();
    this.clock = clock;
  }

  /** Dispatches QUEUED jobs with {@code queue} from now on (before {@link #start()}). */
  public Reconciler withQueue(Queue queue) {
    this.queue = queue;
    return this;
  }

  /** Tells {@code observer} of passes and steps from now on. */
  public Reconciler observedBy(Observer observer) {
    this.observer = Objects.requireNonNull(observer, "observer");
    return this;
  }

  public String owner() {
    return owner;
  }

  /** Targeted steps queued in the lanes and not begun: how far behind pushed events are. */
  public int queuedTargetedSteps() {
    return stepQueued.size();
  }

  /** Asks for a pass now. */
  public void wakeUp() {
    wake.release();
  }

  /**
   * Asks for a step of {@code job} now, e.g. after its submission or a cancel request: leased by
   * its id and stepped in its backend's lane without waiting for a pass. A QUEUED job, or one not
   * on a backend yet, wakes a pass instead (the queue dispatcher places jobs in its own order).
   */
  public void stepSoon(JobRow job) {
    if (job.backendId() == null || job.state() == JobState.QUEUED) {
      wake.release();
      return;
    }
    stepSoon(job.id(), job.backendId());
  }

  /** A pushed event: the attempt's object name says which job changed. */
  private void changed(ExternalRef ref) {
    var jobId = ObjectNames.jobIdOf(ref.name());
    if (jobId.isEmpty()) {
      // Every attempt's object is named for its job (BackendJob.objectName), so this one is no
      // job's: an object copied with our labels, or one a person made. It used to wake a pass,
      // whose lease writes over its whole batch then ran once per event of that object.
      LOG.debug("an event for {}, no job's object, ignored", LogEscape.of(ref.name()));
      return;
    }
    stepSoon(jobId.get(), ref.backendId());
  }

  private void stepSoon(String jobId, String lane) {
    if (!targetedSteps || thread == null || !running) {
      wake.release();
      return;
    }
    if (!stepQueued.add(jobId)) {
      return; // a step of it is queued and has not begun: it will read the status this says
    }
    try {
      lane(lane).execute(() -> targetedStep(jobId));
    } catch (RejectedExecutionException stopping) {
      stepQueued.remove(jobId);
    }
  }

  /**
   * Runs in the job's lane: leases the job by its id, fenced as a pass's lease is, and steps it.
   * Left alone when a pass's batch queued in this lane holds it (that step comes after this and
   * reads the status then), or when another replica holds its lease (it hears the same event).
   */
  private void targetedStep(String jobId) {
    stepQueued.remove(jobId);
    if (!running || !inLane.add(jobId)) {
      return;
    }
    try {
      // A lease is a write: first see, without one, whether the event brought anything new.
      var job = store.find(jobId);
      if (job.isEmpty()
          || job.get().state().isTerminal()
          || job.get().heldByAnother(owner, clock.instant())
          || !stepper.hasNews(job.get())) {
        return;
      }
      var leasedAt = System.nanoTime();
      store.claimOne(job.get(), owner, lease, queue == null).ifPresent(j -> step(j, leasedAt));
    } catch (RuntimeException e) {
      // A database outage: the resync pass retries.
      LOG.warn("job {}: targeted step failed; the next pass retries: {}", jobId, e.toString());
    } finally {
      stepped(jobId);
    }
  }

  /** After a step of job {@code jobId}: it may be stepped again, where a failover moved it. */
  private void stepped(String jobId) {
    inLane.remove(jobId);
    var backend = movedTo.remove(jobId);
    if (backend != null) {
      stepSoon(jobId, backend);
    }
  }

  @Override
  public synchronized void start() {
    // A push says which job to look at: its step reads status itself, so a lost push costs only
    // the wait for the next pass.
    BackendEventListener listener = this::changed;
    for (var entry : backends.all()) {
      subscriptions.add(entry.backend().events(listener));
    }
    // A backend whose cloud was down at start pushes too once it is up.
    backends.onLateStart(entry -> subscriptions.add(entry.backend().events(listener)));
    running = true;
    thread = new Thread(this::loop, "reconciler-" + owner);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Stops following jobs and lets go of everything this replica holds: watches closed, steps under
   * way ended, the queue's dispatch claim and every job lease handed over, so that other replicas
   * take them at their next pass. Called as soon as a stop begins (see {@code
   * io.trainyard.gateway.lifecycle.Draining}) and again by the lifecycle; the second call does
   * nothing.
   */
  @Override
  public synchronized void stop() throws InterruptedException {
    if (stopped) {
      return;
    }
    stopped = true;
    running = false;
    subscriptions.forEach(Subscription::close);
    subscriptions.clear();
    if (thread != null) {
      // Woken rather than interrupted first: an interrupt that lands in the middle of H2's file
      // I/O closes the embedded database's file for every connection (seen at 10,000 jobs, when
      // the loop is always busy), and the hand-over below would then fail. A pass ends in moments.
      wake.release();
      thread.join(TimeUnit.SECONDS.toMillis(5));
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(10));
      }
    }
    // Leases first: a step still under way is then fenced out of writing what the interruption
    // below made of its backend call (a submit cut short is not the backend refusing the job).
    // Another replica may repeat the call at once; submits are idempotent per attempt.
    int handedOver = store.handOver(owner);
    for (var lane : lanes.values()) {
      lane.shutdownNow();
    }
    for (var lane : lanes.values()) {
      lane.awaitTermination(10, TimeUnit.SECONDS);
    }
    lanes.clear();
    if (queue != null) {
      queue.release(owner);
    }
    LOG.info("stopped following jobs; job leases handed over: {}", handedOver);
  }

  private void loop() {
    while (running) {
      try {
        passOnce();
        wake.tryAcquire(interval.toMillis(), TimeUnit.MILLISECONDS);
        wake.drainPermits();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        // A database outage must not kill the loop; the next pass retries.
        LOG.error("reconciler pass failed; retrying in {}", interval, e);
        sleepQuietly();
      }
    }
  }

  /**
   * One pass: lease what is due and step each job once. Public so tests can drive passes without
   * the background thread.
   *
   * @return how many jobs were stepped
   */
  public int passOnce() {
    var began = System.nanoTime();
    purgeExpiredKeys();
    if (queue != null) {
      queue.dispatch(owner, lease);
    }
    var claimed = claimReserved();
    var leasedAt = System.nanoTime();
    observer.passed(clock.instant(), Duration.ofNanos(leasedAt - began));
    if (thread == null) {
      // Driven by a test, without the background thread: every step done when this returns.
      for (JobRow job : claimed) {
        try {
          step(job, leasedAt);
        } finally {
          inLane.remove(job.id());
        }
      }
      movedTo.clear(); // the next driven pass steps them
      stepper.leftAttempts().due().forEach(left -> stepper.leftAttempts().cleanUp(left, owner));
      return claimed.size();
    }
    var byLane = new LinkedHashMap<String, List<JobRow>>();
    for (JobRow job : claimed) {
      byLane.computeIfAbsent(laneOf(job), k -> new ArrayList<>()).add(job);
    }
    byLane.forEach((lane, jobs) -> stepInLane(lane, jobs, leasedAt));
    cleanUpLeftAttempts();
    return claimed.size();
  }

  /**
   * Leases a batch, each job reserved in {@link #inLane} as the claim comes to it and before its
   * lease is written: a targeted step that begins meanwhile finds it taken and leaves it to the
   * batch, and one already under way keeps it out of the claim. Reserving only once the batch was
   * leased let a targeted step begin between the two, take the same job (its lease being ours
   * already) and submit it; the batch then stepped the row it had leased, still PENDING, and
   * submitted the attempt a second time. Jobs reserved but not won are let go again.
   */
  private List<JobRow> claimReserved() {
    var reserved = new ArrayList<String>();
    List<JobRow> claimed = List.of();
    try {
      claimed =
          store.claim(
              owner,
              lease,
              batchSize,
              id -> {
                if (!inLane.add(id)) {
                  return true; // being stepped, or about to be
                }
                reserved.add(id);
                return false;
              },
              queue == null);
      return claimed;
    } finally {
      var won = new HashSet<String>();
      claimed.forEach(job -> won.add(job.id()));
      for (var id : reserved) {
        if (!won.contains(id)) {
          inLane.remove(id);
        }
      }
    }
  }

  /**
   * Attempts jobs left while an object of theirs may exist: each cancelled in its backend's lane,
   * after the steps this pass queued there.
   */
  private void cleanUpLeftAttempts() {
    var left = stepper.leftAttempts();
    for (var attempt : left.due()) {
      if (!cleaning.add(attempt)) {
        continue;
      }
      try {
        lane(attempt.backendId())
            .execute(
                () -> {
                  try {
                    if (running) {
                      left.cleanUp(attempt, owner);
                    }
                  } catch (RuntimeException e) {
                    LOG.warn("job {}: clean-up of a left attempt failed", attempt.jobId(), e);
                  } finally {
                    cleaning.remove(attempt);
                  }
                });
      } catch (RejectedExecutionException stopping) {
        cleaning.remove(attempt);
      }
    }
  }

  /** One job's step, with its id, team and backend in the log lines it writes. */
  private void step(JobRow job, long leasedAt) {
    var began = System.nanoTime();
    observer.stepping(job, Duration.ofNanos(began - leasedAt));
    try (var mdc = JobMdc.of(job)) {
      stepper.step(job, owner);
    } finally {
      observer.stepped(job, Duration.ofNanos(System.nanoTime() - began));
    }
  }

  /** Jobs not routed anywhere yet (re-quotes of QUEUED ones) share a lane of their own. */
  private static String laneOf(JobRow job) {
    return job.backendId() == null ? "" : job.backendId();
  }

  /** The single thread stepping jobs of backend {@code name}, made on first use. */
  private ExecutorService lane(String name) {
    return lanes.computeIfAbsent(
        name,
        n ->
            Executors.newSingleThreadExecutor(
                r -> {
                  var t = new Thread(r, "reconciler-" + owner + "-" + n);
                  t.setDaemon(true);
                  return t;
                }));
  }

  /** Steps a leased batch, whose jobs {@link #claimReserved} holds in {@link #inLane}. */
  private void stepInLane(String lane, List<JobRow> jobs, long leasedAt) {
    try {
      lane(lane)
          .execute(
              () -> {
                for (JobRow job : jobs) {
                  try {
                    if (running) {
                      step(job, leasedAt);
                    }
                  } finally {
                    stepped(job.id());
                  }
                }
              });
    } catch (RejectedExecutionException stopping) {
      jobs.forEach(job -> inLane.remove(job.id()));
    }
  }

  /** Idempotency keys are kept 24 h; any replica may drop older ones, at most once an hour. */
  private void purgeExpiredKeys() {
    var now = clock.instant();
    if (now.isBefore(nextPurge)) {
      return;
    }
    nextPurge = now.plus(PURGE_EVERY);
    var purged = store.purgeIdempotencyKeys(now.minus(JobStore.IDEMPOTENCY_WINDOW));
    if (purged > 0) {
      LOG.info("purged {} idempotency keys older than {}", purged, JobStore.IDEMPOTENCY_WINDOW);
    }
  }

  private void sleepQuietly() {
    try {
      Thread.sleep(interval.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
