package io.trainyard.gateway.jobs;

import io.trainyard.auth.Role;
import io.trainyard.cost.BackendQuote;
import io.trainyard.cost.Candidate;
import io.trainyard.cost.Router;
import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.backends.BoundedCalls;
import io.trainyard.gateway.db.IdempotencyKey;
import io.trainyard.gateway.db.InsertResult;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobIds;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.logging.JobMdc;
import io.trainyard.gateway.queue.QueueDispatcher;
import io.trainyard.gateway.queue.QueuePriority;
import io.trainyard.gateway.tracing.GatewayTracing;
import io.trainyard.spi.JobState;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.ObjectMeta;
import io.trainyard.spi.spec.TrainingJob;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongFunction;
import java.util.regex.Pattern;

/**
 * What the jobs API does: quote a job on every backend the team may use, route it, and store it for
 * the reconciler (the outbox: nothing is sent to a backend from a request thread). Thread-safe.
 */
public final class JobService {
  private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

  /** A routed job and what the caller should know about it. */
  public record Quote(
      String team, TrainingJob job, RoutingDecision decision, List<String> warnings) {}

  /** The stored job, and whether this request created it or replayed an earlier one. */
  public record Submitted(JobRow job, Quote quote, boolean replayed) {}

  private final Router router;
  private final BackendRegistry backends;
  private final TeamDirectory teams;
  private final JobStore store;
  private final StoredJson json;
  private final Clock clock;
  private volatile GatewayTracing tracing = GatewayTracing.off();

  /** Quotes left unanswered per backend before it is no longer asked until one returns. */
  static final int MAX_UNANSWERED_QUOTES = 8;

  private final BoundedCalls quoteCalls = new BoundedCalls("backend-quote", MAX_UNANSWERED_QUOTES);
  private volatile Duration quoteTimeout = Duration.ofSeconds(5);

  public JobService(
      Router router,
      BackendRegistry backends,
      TeamDirectory teams,
      JobStore store,
      StoredJson json,
      Clock clock) {
    this.router = router;
    this.backends = backends;
    this.teams = teams;
    this.store = store;
    this.json = json;
    this.clock = clock;
  }

  /** How long a backend may take to propose placements before a quote goes on without it. */
  public JobService withQuoteTimeout(Duration timeout) {
    this.quoteTimeout = timeout;
    return this;
  }

  /** Spans for route and persist (docs/observability.md "Traces"); set before serving. */
  public JobService withTracing(GatewayTracing tracing) {
    this.tracing = tracing;
    return this;
  }

  /** Asks every backend and routes, storing nothing. */
  public Quote quote(Caller caller, SpecReader.ParsedJob submitted) {
    var team = teams.resolve(caller.principal(), submitted.job().metadata().team());
    var job = submitted.job().withTeam(team);
    var warnings = new ArrayList<>(submitted.warnings());
    QueuePriority.warning(team, teams.config(team), job.spec()).ifPresent(warnings::add);
    return new Quote(team, job, route(team, job), warnings);
  }

  /** Routes a job of {@code team} over every backend now; also re-quotes QUEUED jobs. */
  public RoutingDecision route(String team, TrainingJob job) {
    return tracing.inSpan(
        "route",
        () -> {
          var waiting = store.waitingByBackend();
          // Every backend that may need the network is asked at once on a pool, each bounded by
          // the same deadline: a backend whose calls hang costs a quote at most quoteTimeout, and
          // only its own offer. Those that answer from memory are asked here meanwhile, sparing
          // two thread hand-offs each.
          var deadline = System.nanoTime() + quoteTimeout.toNanos();
          var entries = List.copyOf(backends.all());
          var answers = new ArrayList<LongFunction<BackendQuote>>(entries.size());
          for (var entry : entries) {
            var answered = answeredWithoutAsking(team, entry);
            if (answered != null) {
              answers.add(at -> answered);
            } else {
              answers.add(entry.backend().placementsFromMemory() ? null : ask(job, entry));
            }
          }
          for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) == null) {
              var here = askHere(job, entries.get(i));
              answers.set(i, at -> here);
            }
          }
          var quotes = new ArrayList<BackendQuote>(answers.size());
          for (var answer : answers) {
            quotes.add(GatewayQueueAhead.add(answer.apply(deadline), waiting));
          }
          return router.route(job.spec(), quotes);
        });
  }

  /** The backend's quote when it need not be asked (refused for the team, known down); or null. */
  private BackendQuote answeredWithoutAsking(String team, BackendRegistry.Entry entry) {
    var config = entry.config();
    var kind = entry.backend().kind();
    var refusal = teams.refusal(team, entry);
    var regions = teams.regions(team);
    if (refusal == null && !regions.isEmpty() && !regions.contains(config.region())) {
      refusal = "region " + config.region() + " is outside team " + team + "'s residency";
    }
    if (refusal != null) {
      return BackendQuote.unavailable(config.id(), kind, config.region(), refusal);
    }
    var down = backends.unavailableReason(config.id());
    if (down != null) {
      // Down now, maybe up soon: the job may wait for it (QUEUED) rather than be refused.
      return BackendQuote.unavailable(
          config.id(), kind, config.region(), down, Rejection.Kind.NOT_NOW);
    }
    return null;
  }

  /** Starts asking the backend for placements on the pool; its quote, given the deadline. */
  private LongFunction<BackendQuote> ask(TrainingJob job, BackendRegistry.Entry entry) {
    BoundedCalls.Pending<Proposals> pending;
    try {
      pending =
          quoteCalls.start(entry.config().id(), () -> entry.backend().placements(job.spec()), null);
    } catch (BoundedCalls.NoAnswer e) {
      var refused = notNow(entry, "could not propose a placement: " + e.getMessage());
      return at -> refused;
    }
    return deadline -> {
      try {
        return quote(entry, pending.await(deadline, quoteTimeout));
      } catch (RuntimeException e) {
        // A backend that fails to answer is in trouble, not a verdict on the spec.
        return notNow(entry, "could not propose a placement: " + e.getMessage());
      }
    };
  }

  /** The quote of a backend whose placements need no network, asked in this thread. */
  private static BackendQuote askHere(TrainingJob job, BackendRegistry.Entry entry) {
    try {
      return quote(entry, entry.backend().placements(job.spec()));
    } catch (RuntimeException e) {
      return notNow(entry, "could not propose a placement: " + e.getMessage());
    }
  }

  private static BackendQuote quote(BackendRegistry.Entry entry, Proposals proposals) {
    var config = entry.config();
    return new BackendQuote(
        config.id(),
        entry.backend().kind(),
        config.region(),
        config.hipaaEligible(),
        config.discountPct(),
        proposals,
        null);
  }

  private static BackendQuote notNow(BackendRegistry.Entry entry, String why) {
    var config = entry.config();
    return BackendQuote.unavailable(
        config.id(), entry.backend().kind(), config.region(), why, Rejection.Kind.NOT_NOW);
  }

  /** Refuses a malformed {@code Idempotency-Key}; null (none given) is fine. */
  public static void checkIdempotencyKey(String idempotencyKey) {
    if (idempotencyKey != null && !IDEMPOTENCY_KEY.matcher(idempotencyKey).matches()) {
      throw ApiException.field(
          ErrorCode.MALFORMED, "Idempotency-Key", "must be 1 to 255 printable ASCII characters");
    }
  }

  /**
   * Routes and stores the job as PENDING on the chosen offer, in one transaction with its
   * idempotency key; QUEUED when no backend can take it now but one could once it is up or has room
   * (or the team is over a quota). Nothing is stored when no backend could ever run it (422).
   */
  public Submitted submit(Caller caller, SpecReader.ParsedJob submitted, String idempotencyKey) {
    checkIdempotencyKey(idempotencyKey);
    var quote = quote(caller, submitted);
    var decision = quote.decision();
    var actor = AuditActors.of(caller);
    if (decision.offers().isEmpty() && decision.neverRunnable()) {
      var message = "no backend can run this job; the decision lists why";
      store.refused(row(caller, quote, null), actor, message);
      throw new ApiException(ErrorCode.NO_OFFER, message, List.of(), decision);
    }
    // The first offer with room: a backend that says it has no free capacity is full now.
    var full = new ArrayList<String>();
    Candidate offer = null;
    int index = 0;
    for (var candidate : decision.offers()) {
      var free = candidate.placement() == null ? null : candidate.placement().freeCapacity();
      if (free == null || free > 0) {
        offer = candidate;
        break;
      }
      full.add(candidate.backendId() + ": no free capacity now");
      index++;
    }
    var row = row(caller, quote, offer).toBuilder().offerIndex(offer == null ? 0 : index).build();
    JobEvent event;
    if (offer == null) {
      // Some backend could run it once it is up or has room: it waits in the queue.
      var why = QueueDispatcher.whyWaiting(decision, full);
      row = row.toBuilder().state(JobState.QUEUED).reason(why).build();
      event = JobEvent.of(row.id(), row.createdAt(), JobEvent.STATE, "QUEUED: " + why);
    } else {
      event =
          JobEvent.of(
              row.id(), row.createdAt(), JobEvent.STATE, "PENDING: routed to " + describe(offer));
    }
    // The document as sent, not as an algorithm's current default expanded it.
    var specHash = CanonicalJson.sha256(submitted.submitted().withTeam(quote.team()));
    var principal = caller.principal();
    var key =
        idempotencyKey == null
            ? null
            : new IdempotencyKey(quote.team(), principal.subject(), idempotencyKey, specHash);
    var stored = row;
    InsertResult result;
    try (var mdc = JobMdc.of(row)) {
      result =
          tracing.inSpan(
              "persist",
              () -> {
                var inserted = store.insert(stored, event, key, teams.budget(quote.team()), actor);
                if (inserted instanceof InsertResult.Created created) {
                  tracing.submitted(created.job().id());
                }
                return inserted;
              });
    }
    if (result instanceof InsertResult.Created created) {
      return new Submitted(created.job(), quote, false);
    }
    if (result instanceof InsertResult.SameKey same) {
      if (!same.existingSpecHash().equals(specHash)) {
        throw ApiException.field(
            ErrorCode.CONFLICT,
            "Idempotency-Key",
            "was already used with a different job document (job " + same.existingJobId() + ")");
      }
      return new Submitted(store.find(same.existingJobId()).orElseThrow(), quote, true);
    }
    if (result instanceof InsertResult.OverBudget over) {
      throw new ApiException(ErrorCode.OVER_BUDGET, over.verdict().reason());
    }
    var taken = (InsertResult.NameTaken) result;
    throw ApiException.field(
        ErrorCode.CONFLICT,
        "metadata.name",
        "team "
            + quote.team()
            + " already has a live job of this name ("
            + taken.existingJobId()
            + "); cancel it or choose another name");
  }

  /**
   * The job as it would be stored on {@code offer} (null: none, for auditing a refusal). The spec
   * hash is the submitted document's, taken before a {@code metadata.generateName} becomes a name,
   * so the same document with the same idempotency key finds the job stored first.
   */
  private JobRow row(Caller caller, Quote quote, Candidate offer) {
    var principal = caller.principal();
    var now = clock.instant();
    var named = quote.job().named(generatedSuffix());
    return JobRow.builder()
        .id(JobIds.newId())
        .team(quote.team())
        .ownerSubject(principal.subject())
        .ownerUsername(principal.username())
        .name(named.metadata().name())
        .state(JobState.PENDING)
        .attempt(1)
        .specJson(json.write(named))
        .specHash(CanonicalJson.sha256(quote.job()))
        .decisionJson(json.write(quote.decision()))
        .offerIndex(0)
        .backendId(offer == null ? null : offer.backendId())
        .hourlyUsd(offer == null ? null : offer.hourlyUsd())
        .estimatedUsd(offer == null ? null : offer.estimatedUsd())
        .createdAt(now)
        .updatedAt(now)
        .build();
  }

  /** Five characters of Kubernetes' name-suffix alphabet, as its API server generates them. */
  private static String generatedSuffix() {
    var random = ThreadLocalRandom.current();
    var suffix = new StringBuilder();
    for (int i = 0; i < ObjectMeta.SUFFIX_LENGTH; i++) {
      suffix.append(
          ObjectMeta.SUFFIX_ALPHABET.charAt(random.nextInt(ObjectMeta.SUFFIX_ALPHABET.length())));
    }
    return suffix.toString();
  }

  private static String describe(Candidate offer) {
    return offer.backendId()
        + (offer.hourlyUsd() == null ? "" : " at $" + offer.hourlyUsd().toPlainString() + "/h");
  }

  /**
   * A job the caller may see.
   *
   * @throws ApiException 404 for a job that does not exist or belongs to another team — the same
   *     answer, so job ids of other teams cannot be probed
   */
  public JobRow get(Caller caller, String id) {
    return store
        .find(id)
        .filter(job -> visible(caller, job))
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no job " + id));
  }

  public List<JobRow> list(Caller caller, Set<JobState> states, int limit) {
    if (caller.has(Role.PLATFORM_ADMIN)) {
      return store.list(null, states, limit);
    }
    var result = new ArrayList<JobRow>();
    for (var team : caller.principal().teams()) {
      result.addAll(store.list(team, states, limit));
    }
    result.sort((a, b) -> b.createdAt().compareTo(a.createdAt()));
    return result.size() > limit ? result.subList(0, limit) : result;
  }

  /** Asks the reconciler to cancel; answers the job as it stands. Terminal jobs are unchanged. */
  public JobRow cancel(Caller caller, String id) {
    var job = get(caller, id);
    if (!mayCancel(caller, job)) {
      // Reading a teammate's job stays allowed; stopping their work is for them or an admin.
      throw new ApiException(
          ErrorCode.FORBIDDEN,
          "job "
              + id
              + " was submitted by "
              + job.ownerUsername()
              + "; only its submitter or a team-admin of "
              + job.team()
              + " may cancel it");
    }
    if (job.state().isTerminal()) {
      return job;
    }
    try (var mdc = JobMdc.of(job)) {
      return store
          .requestCancel(id, caller.principal().username(), AuditActors.of(caller))
          .orElse(job);
    }
  }

  private static boolean mayCancel(Caller caller, JobRow job) {
    return caller.has(Role.PLATFORM_ADMIN)
        || caller.principal().subject().equals(job.ownerSubject())
        || caller.has(Role.TEAM_ADMIN) && caller.principal().teams().contains(job.team());
  }

  private static boolean visible(Caller caller, JobRow job) {
    return caller.has(Role.PLATFORM_ADMIN) || caller.principal().teams().contains(job.team());
  }
}
