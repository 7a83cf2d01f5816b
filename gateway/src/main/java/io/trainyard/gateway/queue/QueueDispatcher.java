package io.trainyard.gateway.queue;

import io.trainyard.cost.Candidate;
import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.gateway.reconcile.JobStepper;
import io.trainyard.gateway.reconcile.Reconciler;
import io.trainyard.spi.JobState;
import io.trainyard.spi.spec.TrainingJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves QUEUED jobs on to backends in queue order ({@link FairOrder}), in one replica at a time (a
 * lease on {@code queue_dispatch}). A pass re-quotes every queued job when one is due: a placed job
 * ended (capacity or quota freed, asked for in the ending job's transaction), a backend became
 * healthy again or prices changed (seen by this replica), the month changed (spend resets), or
 * {@link #REQUOTE_EVERY} passed. Each job is leased ({@link JobStore#claimOne}) and moved by a
 * write fenced on its version and lease, with the team's budget and quotas checked under the team's
 * row lock ({@link JobStore#admit}); so a replica whose lease lapsed changes nothing.
 *
 * <p>Room: an offer whose backend says how many instances are free ({@code freeCapacity}) takes
 * only as many jobs as are free, less the jobs already PENDING there; a job that finds no room
 * stays queued and the jobs behind it are still offered what is left (so a big job does not hold
 * back small ones that fit).
 */
public final class QueueDispatcher implements Reconciler.Queue {
  private static final Logger LOG = LoggerFactory.getLogger(QueueDispatcher.class);

  /** The longest a queued job goes without being quoted again. */
  public static final Duration REQUOTE_EVERY = Duration.ofSeconds(10);

  private final JobStore store;
  private final QueueStore queue;
  private final JobStepper.Router router;
  private final TeamDirectory teams;
  private final BackendRegistry backends;
  private final StoredJson json;
  private final Supplier<Object> prices;
  private final Duration requoteEvery;
  private Set<String> lastUnhealthy = Set.of();
  private Object lastPrices;

  /**
   * @param prices what changes when prices are refreshed (compared by identity)
   */
  public QueueDispatcher(
      JobStore store,
      QueueStore queue,
      JobStepper.Router router,
      TeamDirectory teams,
      BackendRegistry backends,
      StoredJson json,
      Supplier<Object> prices,
      Duration requoteEvery) {
    this.store = store;
    this.queue = queue;
    this.router = router;
    this.teams = teams;
    this.backends = backends;
    this.json = json;
    this.prices = prices;
    this.requoteEvery = requoteEvery;
    this.lastPrices = prices.get();
  }

  /**
   * One dispatch pass, if this replica holds the dispatcher's lease and one is due.
   *
   * @return how many queued jobs were placed
   */
  @Override
  public synchronized int dispatch(String owner, Duration lease) {
    noticeChanges();
    if (!queue.holdDispatch(owner, lease) || !queue.due(requoteEvery)) {
      return 0;
    }
    var started = queue.now();
    var queued = queue.queued(null);
    var placedJobs = new HashMap<String, Integer>();
    queue.usage().forEach((team, usage) -> placedJobs.put(team, usage.jobs()));
    var order = new FairOrder(queued, placedJobs, this::weight);
    var pending = new HashMap<>(queue.pendingByBackend());
    int placed = 0;
    while (order.hasNext()) {
      var job = order.next();
      if (dispatchOne(job, owner, lease, pending)) {
        order.placed(job);
        placed++;
      }
    }
    queue.passed(owner, started);
    return placed;
  }

  @Override
  public void release(String owner) {
    queue.releaseDispatch(owner);
  }

  private int weight(String team) {
    var weight = teams.config(team).weight();
    return weight == null ? 1 : weight;
  }

  /** A backend healthy again or new prices: every queued job is quoted again. */
  private void noticeChanges() {
    var unhealthy = new HashSet<String>();
    for (var entry : backends.all()) {
      if (backends.unavailableReason(entry.config().id()) != null) {
        unhealthy.add(entry.config().id());
      }
    }
    var current = prices.get();
    boolean recovered = !unhealthy.containsAll(lastUnhealthy);
    boolean repriced = current != lastPrices;
    lastUnhealthy = Set.copyOf(unhealthy);
    lastPrices = current;
    if (recovered || repriced) {
      queue.requestRequote();
    }
  }

  private boolean dispatchOne(
      QueuedJob queued, String owner, Duration lease, Map<String, Integer> pending) {
    var claimed = store.claimOne(queued.id(), owner, lease);
    if (claimed.isEmpty()) {
      return false;
    }
    var job = claimed.get();
    try {
      if (job.state() != JobState.QUEUED) {
        return false;
      }
      if (job.cancelRequested()) {
        write(job, owner, job.withState(JobState.CANCELLED, "cancelled while queued", now()));
        return false;
      }
      var decision = router.route(job.team(), json.read(job.specJson(), TrainingJob.class));
      var full = new ArrayList<String>();
      var offers = decision.offers();
      int index = -1;
      for (int i = 0; i < offers.size() && index < 0; i++) {
        if (hasRoom(offers.get(i), pending)) {
          index = i;
        } else {
          full.add(offers.get(i).backendId() + ": no free capacity left (taken by jobs ahead)");
        }
      }
      if (index < 0) {
        stillQueued(job, owner, whyWaiting(decision, full));
        return false;
      }
      var offer = offers.get(index);
      // A job queued after its offers refused has used its attempt; one queued at submit has not.
      var attempt = job.backendId() == null ? job.attempt() : job.attempt() + 1;
      var next =
          job.withState(JobState.PENDING, null, now()).toBuilder()
              .attempt(attempt)
              .decisionJson(json.write(decision))
              .offerIndex(index)
              .backendId(offer.backendId())
              .hourlyUsd(offer.hourlyUsd())
              .estimatedUsd(offer.estimatedUsd())
              .externalRefJson(null)
              .build();
      var event =
          JobEvent.of(
              job.id(),
              now(),
              JobEvent.STATE,
              "PENDING: dispatched from the queue, routed to " + offer.backendId());
      var waiting = store.admit(next, job.version(), owner, event, teams.budget(job.team()));
      if (waiting.isPresent()) {
        stillQueued(job, owner, waiting.get());
        return false;
      }
      pending.merge(offer.backendId(), 1, Integer::sum);
      return true;
    } catch (RuntimeException e) {
      LOG.error(
          "queued job {}: dispatch failed; retried on a later pass",
          job.id(),
          LogEscape.throwable(e));
      store.release(job.id(), owner);
      return false;
    }
  }

  private static boolean hasRoom(Candidate offer, Map<String, Integer> pending) {
    var free = offer.placement() == null ? null : offer.placement().freeCapacity();
    return free == null || free - pending.getOrDefault(offer.backendId(), 0) > 0;
  }

  /** Every reason that could lift, per backend; or, without one, the plain fact. */
  public static String whyWaiting(RoutingDecision decision, List<String> full) {
    var reasons = new ArrayList<>(decision.notNowReasons());
    reasons.addAll(full);
    return reasons.isEmpty()
        ? "no backend can take it now"
        : "no backend can take it now: " + String.join("; ", reasons);
  }

  private void stillQueued(JobRow job, String owner, String reason) {
    if (reason.equals(job.reason())) {
      // Nothing new to say: no write, just the lease back (a pass re-quotes every queued job).
      store.release(job.id(), owner);
      return;
    }
    var next = job.toBuilder().reason(reason).updatedAt(now()).build();
    if (store.update(next, job.version(), owner, List.of())) {
      store.release(job.id(), owner);
    }
  }

  private void write(JobRow job, String owner, JobRow next) {
    var event =
        JobEvent.of(
            job.id(),
            now(),
            JobEvent.STATE,
            next.state() + (next.reason() == null ? "" : ": " + next.reason()));
    store.update(next, job.version(), owner, List.of(event));
  }

  private java.time.Instant now() {
    return queue.now();
  }
}
