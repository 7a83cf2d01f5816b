package io.trainyard.gateway.reconcile;

import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.backends.BoundedCalls;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.gateway.tracing.GatewayTracing;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.TrainingJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves one leased job one step: submits a PENDING attempt, follows a submitted one, carries out a
 * cancel, fails over when a backend refuses for capacity. Every write is fenced on the job's
 * version and this replica's lease, so a replica that lost the lease changes nothing. Backend
 * errors are decided by type ({@link BackendException}), never by message.
 */
public final class JobStepper {
  private static final Logger LOG = LoggerFactory.getLogger(JobStepper.class);

  /** What a job that lost its backend object ends with (DESIGN.md). */
  public static final String OBJECT_LOST = "BACKEND_OBJECT_LOST";

  /** What a job whose backend was removed from the configuration ends with. */
  public static final String BACKEND_REMOVED = "BACKEND_REMOVED";

  /** How often a QUEUED job is re-quoted to see whether capacity or budget has freed. */
  static final Duration REQUOTE_EVERY = Duration.ofSeconds(10);

  /** Routes a job of a team over the backends as they are now. */
  @FunctionalInterface
  public interface Router {
    RoutingDecision route(String team, TrainingJob job);
  }

  private final JobStore store;
  private final BackendRegistry backends;
  private final StoredJson json;
  private final Router router;
  private final TeamDirectory teams;
  private final AttemptLogs attemptLogs;
  private final BoundedSubmits submits;
  private final SubmitRetries retries;
  private final JobWrites writes;
  private final Failover failover;
  private final LeftAttempts left;
  private final Clock clock;
  private final BiFunction<BackendJob, TrainingBackend, BackendJob> attemptEnv;

  /**
   * @param router re-quotes QUEUED jobs
   * @param teams budgets and per-backend settings (namespaces) of teams
   * @param archive where an ended attempt's logs go when its backend does not keep them
   */
  private volatile GatewayTracing tracing = GatewayTracing.off();

  public JobStepper(
      JobStore store,
      BackendRegistry backends,
      StoredJson json,
      Router router,
      TeamDirectory teams,
      LogArchive archive,
      Clock clock) {
    this(store, backends, json, router, teams, archive, SubmitRetries.Policy.DEFAULT, clock);
  }

  /**
   * @param retries how a submit that the backend answers {@code Retryable} is retried
   */
  public JobStepper(
      JobStore store,
      BackendRegistry backends,
      StoredJson json,
      Router router,
      TeamDirectory teams,
      LogArchive archive,
      SubmitRetries.Policy retries,
      Clock clock) {
    this(store, backends, json, router, teams, archive, retries, (job, backend) -> job, clock);
  }

  /**
   * @param attemptEnv adds what the gateway gives an attempt at submit (its metrics URL and token)
   */
  public JobStepper(
      JobStore store,
      BackendRegistry backends,
      StoredJson json,
      Router router,
      TeamDirectory teams,
      LogArchive archive,
      SubmitRetries.Policy retries,
      BiFunction<BackendJob, TrainingBackend, BackendJob> attemptEnv,
      Clock clock) {
    this.attemptEnv = attemptEnv;
    this.retries = new SubmitRetries(retries);
    this.submits = new BoundedSubmits(retries.timeout());
    this.writes = new JobWrites(store, clock);
    this.failover =
        new Failover(
            store,
            teams,
            writes,
            this.retries,
            id -> backends.unavailableReason(id) != null,
            clock);
    this.left = new LeftAttempts(store, backends, json, teams, submits::inFlight);
    this.store = store;
    this.backends = backends;
    this.json = json;
    this.router = router;
    this.teams = teams;
    this.attemptLogs = new AttemptLogs(archive, clock);
    this.clock = clock;
  }

  /** The attempts jobs have left that may have left objects, for the reconciler to clean up. */
  LeftAttempts leftAttempts() {
    return left;
  }

  /** Each step as a span of its own (docs/observability.md "Traces"); set before starting. */
  /** Hears of each job a step moved to another backend, with its id and that backend. */
  void onMoved(java.util.function.BiConsumer<String, String> listener) {
    writes.onMoved(listener);
  }

  public JobStepper withTracing(GatewayTracing tracing) {
    this.tracing = tracing;
    return this;
  }

  /** Steps {@code job}, which {@code owner} has leased. Never throws for backend trouble. */
  public void step(JobRow job, String owner) {
    tracing.step(job, () -> stepUntraced(job, owner));
  }

  private void stepUntraced(JobRow job, String owner) {
    try {
      if (backendRemoved(job)) {
        endOnRemovedBackend(job, owner);
        return;
      }
      switch (job.state()) {
        case QUEUED -> stepQueued(job, owner);
        case PENDING -> stepPending(job, owner);
        case SUBMITTED, RUNNING, CANCELLING -> follow(job, owner);
        default -> store.release(job.id(), owner);
      }
    } catch (BackendException.Retryable e) {
      LOG.info("job {}: backend busy, retrying later: {}", job.id(), LogEscape.of(e.getMessage()));
    } catch (BackendException.Unauthenticated e) {
      backends.markUnhealthy(job.backendId(), e.getMessage());
    } catch (RuntimeException e) {
      // Messages may quote the spec (names, args, env values): escaped.
      LOG.error("job {}: step failed; retrying on the next pass", job.id(), LogEscape.throwable(e));
    }
  }

  /**
   * Whether a step of {@code job} could write anything now, asked before leasing it for a pushed
   * event: false only for a submitted or running attempt with no cancel asked whose backend reports
   * the phase and restarts its row already has (a re-delivered or unrelated event, or one of the
   * thousands an informer's first list pushes at start). True whenever unsure; never writes.
   */
  boolean hasNews(JobRow job) {
    if ((job.state() != JobState.SUBMITTED && job.state() != JobState.RUNNING)
        || job.cancelRequested()
        || backends.find(job.backendId()).isEmpty()) {
      return true;
    }
    try {
      var status = backend(job).status(storedRef(job));
      return status.phase() == BackendPhase.REFUSED
          || target(job.state(), status.phase()) != job.state()
          || status.restarts() != job.restarts();
    } catch (RuntimeException e) {
      return true; // the step itself deals with it
    }
  }

  private void stepQueued(JobRow job, String owner) {
    if (job.cancelRequested()) {
      writes.write(job, owner, job.withState(JobState.CANCELLED, "cancelled while queued", now()));
      return;
    }
    if (Duration.between(job.updatedAt(), now()).compareTo(REQUOTE_EVERY) < 0) {
      return;
    }
    var decision = router.route(job.team(), json.read(job.specJson(), TrainingJob.class));
    var offer = decision.offer(0);
    if (offer.isEmpty()) {
      stillQueued(job, owner, "no backend can take it now");
      return;
    }
    // A job queued after its offers refused has used its attempt; one queued at submit has not.
    var attempt = job.backendId() == null ? job.attempt() : job.attempt() + 1;
    var next =
        job.withState(JobState.PENDING, null, now()).toBuilder()
            .attempt(attempt)
            .decisionJson(json.write(decision))
            .offerIndex(0)
            .backendId(offer.get().backendId())
            .hourlyUsd(offer.get().hourlyUsd())
            .estimatedUsd(offer.get().estimatedUsd())
            .externalRefJson(null)
            .build();
    var event =
        JobEvent.of(
            job.id(),
            now(),
            JobEvent.STATE,
            "PENDING: re-quoted, routed to " + offer.get().backendId());
    var over = store.promote(next, job.version(), owner, event, teams.budget(job.team()));
    if (over.isPresent()) {
      stillQueued(job, owner, over.get().reason());
    }
  }

  /** Keeps the job QUEUED with the current reason, and restarts its re-quote clock. */
  private void stillQueued(JobRow job, String owner, String reason) {
    writes.write(job, owner, job.toBuilder().reason(reason).updatedAt(now()).build());
  }

  private void stepPending(JobRow job, String owner) {
    var backend = backend(job);
    var decision = json.read(job.decisionJson(), RoutingDecision.class);
    var offer = decision.offer(job.offerIndex()).orElseThrow();
    var attempt = left.attempt(job, job.attempt(), job.backendId(), offer.placement());
    if (job.cancelRequested()) {
      // A crash between submit and our write may have left the attempt's object behind.
      backend.cancelAttempt(attempt);
      retries.done(job.id(), job.attempt());
      writes.write(
          job, owner, job.withState(JobState.CANCELLED, "cancelled before it started", now()));
      return;
    }
    var down = backends.unavailableReason(job.backendId());
    if (down != null) {
      // Known down (a failed probe, refused credentials, a submit that failed with it): the next
      // offer now, or QUEUED until a backend can take it, rather than waiting out retries here.
      failover.apply(job, owner, decision, job.backendId() + " is " + down);
      return;
    }
    if (retries.waiting(job.id(), job.attempt(), now())) {
      return;
    }
    try {
      var ref = submits.submit(job.backendId(), backend, attemptEnv.apply(attempt, backend));
      retries.done(job.id(), job.attempt());
      var next =
          job.withState(JobState.SUBMITTED, null, now()).toBuilder()
              .externalRefJson(json.write(ref))
              .submittedAt(now())
              .build();
      writes.write(
          job, owner, next, "SUBMITTED", "accepted by " + job.backendId() + " as " + ref.name());
    } catch (BackendException.CapacityUnavailable | BackendException.Unauthenticated e) {
      if (e instanceof BackendException.Unauthenticated) {
        backends.markUnhealthy(job.backendId(), e.getMessage());
      }
      failover.apply(job, owner, decision, job.backendId() + " refused: " + e.getMessage());
    } catch (BoundedCalls.NoAnswer e) {
      // Hanging, not refusing: down for every job until a probe passes; this one moves on, and the
      // attempt it leaves is cleaned up once the call returns.
      backends.markUnhealthy(job.backendId(), e.getMessage());
      failover.apply(job, owner, decision, job.backendId() + " is unhealthy: " + e.getMessage());
    } catch (BackendException.Rejected e) {
      writes.write(job, owner, job.withState(JobState.FAILED, e.getMessage(), now()));
    } catch (BackendException.Retryable e) {
      if (Thread.currentThread().isInterrupted()) {
        return; // stopping: the next replica takes the job up where it is
      }
      var used = retries.failed(job.id(), job.attempt(), now());
      if (used < 0 && !backends.checkHealth(job.backendId()).healthy()) {
        // Throttled, the backend still answers its probe and the job waits its turn; failing the
        // probe too, the backend is down (now marked so for every job) and the job moves on.
        failover.apply(job, owner, decision, job.backendId() + " is unhealthy: " + e.getMessage());
        return;
      }
      if (used < 0) {
        LOG.info(
            "job {}: {} busy at submit, retrying later: {}",
            job.id(),
            job.backendId(),
            LogEscape.of(e.getMessage()));
        return;
      }
      var why = job.backendId() + " did not answer after " + used + " tries: " + e.getMessage();
      if (decision.offer(job.offerIndex() + 1).isPresent()) {
        failover.apply(job, owner, decision, why);
      } else {
        writes.write(job, owner, job.withState(JobState.FAILED, why, now()));
      }
    }
  }

  private boolean backendRemoved(JobRow job) {
    // QUEUED jobs are re-quoted among the backends there are; the other live states are on one.
    return job.backendId() != null
        && !job.state().isTerminal()
        && job.state() != JobState.QUEUED
        && backends.find(job.backendId()).isEmpty();
  }

  /**
   * A backend taken out of the configuration cannot be asked about its jobs: each ends, with a
   * reason saying so, rather than failing every pass for ever. Its object, if any, is left to
   * whoever removed the backend.
   */
  private void endOnRemovedBackend(JobRow job, String owner) {
    var why =
        BACKEND_REMOVED
            + ": backend "
            + job.backendId()
            + " is no longer configured; its object of attempt "
            + job.attempt()
            + ", if any, was not cleaned up";
    var cancel = job.cancelRequested() || job.state() == JobState.CANCELLING;
    if (cancel && (job.state() == JobState.RUNNING || job.state() == JobState.SUBMITTED)) {
      // SUBMITTED and RUNNING may end CANCELLED only through CANCELLING.
      job = writes.writeAndReload(job, owner, job.withState(JobState.CANCELLING, why, now()));
      if (job == null) {
        return;
      }
    }
    var end = cancel ? JobState.CANCELLED : JobState.FAILED;
    writes.write(job, owner, job.withState(end, why, now()));
  }

  private void follow(JobRow job, String owner) {
    var backend = backend(job);
    var ref = storedRef(job);
    if (job.cancelRequested() && job.state() != JobState.CANCELLING) {
      // Cancelling removes the pods, and with them the logs: keep what they printed first.
      var archived = attemptLogs.archive(job, backend, ref);
      backend.cancel(ref);
      var cancelling = job.withState(JobState.CANCELLING, null, now());
      if (!writes.commit(
          job,
          owner,
          cancelling,
          attemptLogs.withLogEvent(writes.stateEvent(job, cancelling), job, archived))) {
        return;
      }
      job = store.find(job.id()).orElse(null);
      if (job == null) {
        return;
      }
    }
    BackendStatus status;
    try {
      status = backend.status(ref);
    } catch (BackendException.NotFound e) {
      var end = job.state() == JobState.CANCELLING ? JobState.CANCELLED : JobState.FAILED;
      writes.write(
          job, owner, job.withState(end, end == JobState.FAILED ? OBJECT_LOST : null, now()));
      return;
    }
    apply(job, owner, status, backend, ref);
  }

  private void apply(
      JobRow job, String owner, BackendStatus status, TrainingBackend backend, ExternalRef ref) {
    if (status.phase() == BackendPhase.REFUSED && job.state() != JobState.CANCELLING) {
      var decision = json.read(job.decisionJson(), RoutingDecision.class);
      var why = job.backendId() + " did not admit it: " + status.reason();
      if (job.state() == JobState.RUNNING) {
        // RUNNING may only go back to SUBMITTED; the failover proper happens from there.
        job = writes.writeAndReload(job, owner, job.withState(JobState.SUBMITTED, why, now()));
        if (job == null) {
          return;
        }
      }
      failover.apply(job, owner, decision, why);
      return;
    }
    var target = target(job.state(), status.phase());
    if (target == job.state()) {
      if (status.restarts() != job.restarts()) {
        writes.write(
            job, owner, job.toBuilder().restarts(status.restarts()).updatedAt(now()).build());
      }
      return;
    }
    // A job can finish between two passes; walk through RUNNING so the history stays true.
    if (job.state() == JobState.SUBMITTED && target == JobState.SUCCEEDED) {
      job =
          writes.writeAndReload(
              job, owner, started(job, status).withState(JobState.RUNNING, null, now()));
      if (job == null) {
        return;
      }
    }
    var next = job.withState(target, target.isTerminal() ? status.reason() : null, now());
    if (target == JobState.RUNNING) {
      next = started(next, status);
    }
    if (target.isTerminal() && status.startedAt() != null && next.startedAt() == null) {
      next = next.toBuilder().startedAt(status.startedAt()).build();
    }
    if (target.isTerminal() && status.endedAt() != null) {
      next = next.toBuilder().endedAt(status.endedAt()).build();
    }
    next = next.toBuilder().restarts(status.restarts()).build();
    if (!target.isTerminal()) {
      writes.write(job, owner, next);
      return;
    }
    var archived = attemptLogs.archive(job, backend, ref);
    var events = attemptLogs.withLogEvent(writes.stateEvent(job, next), job, archived);
    if (writes.commit(job, owner, next, events)
        && archived.map(AttemptLogs.Archived::done).orElse(false)) {
      attemptLogs.cleanUp(job, backend, ref);
    }
  }

  private static JobRow started(JobRow job, BackendStatus status) {
    return job.toBuilder()
        .startedAt(status.startedAt() != null ? status.startedAt() : job.updatedAt())
        .restarts(status.restarts())
        .build();
  }

  /** Where a job in {@code state} goes when its attempt is in {@code phase}. */
  static JobState target(JobState state, BackendPhase phase) {
    if (state == JobState.CANCELLING) {
      return switch (phase) {
        case SUCCEEDED -> JobState.SUCCEEDED;
        case FAILED -> JobState.FAILED;
        case STOPPED, REFUSED -> JobState.CANCELLED;
        default -> JobState.CANCELLING;
      };
    }
    return switch (phase) {
      case ADMITTING, SUSPENDED -> JobState.SUBMITTED;
      case RUNNING -> JobState.RUNNING;
      case SUCCEEDED -> JobState.SUCCEEDED;
      case FAILED, STOPPED -> JobState.FAILED;
      case REFUSED -> throw new IllegalStateException("a refused attempt fails over");
    };
  }

  private TrainingBackend backend(JobRow job) {
    return backends
        .find(job.backendId())
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "job "
                        + job.id()
                        + " is on backend "
                        + job.backendId()
                        + ", no longer configured"))
        .backend();
  }

  private ExternalRef storedRef(JobRow job) {
    return job.externalRefJson() == null
        ? ref(job)
        : json.read(job.externalRefJson(), ExternalRef.class);
  }

  private static ExternalRef ref(JobRow job) {
    return new ExternalRef(job.backendId(), ObjectNames.of(job.id(), job.attempt()), Map.of());
  }

  private Instant now() {
    return clock.instant();
  }
}
