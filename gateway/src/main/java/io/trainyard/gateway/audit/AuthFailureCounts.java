package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.Outcome;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.logging.LogEscape;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts refused tokens per source address per minute and writes one {@code auth.failure} event per
 * source and minute once the minute is over; likewise coalesces {@code auth.denied} per caller and
 * minute (see {@link #denied}) (DESIGN.md: repeated failures are aggregated), so that a flood of
 * bad tokens costs a few rows, not one per request. Each replica counts its own requests. Sources
 * beyond {@value #MAX_SOURCES} in one minute are counted together under {@code "*"}, so that memory
 * stays bounded whatever an attacker sends. Thread-safe.
 */
public final class AuthFailureCounts implements AccessFeature.FailureListener {
  static final int MAX_SOURCES = 10_000;
  static final String OTHER_SOURCES = "*";

  private static final Logger LOG = LoggerFactory.getLogger(AuthFailureCounts.class);
  private static final long MINUTE_MS = 60_000;

  /** A source address (refused tokens) or a token subject (denials), and a minute. */
  private record Key(String who, long minute) {}

  /** One source's failures in one minute, by reason. */
  private static final class Bucket {
    private final Map<String, LongAdder> reasons = new ConcurrentHashMap<>();

    void add(String reason, long n) {
      reasons.computeIfAbsent(reason, r -> new LongAdder()).add(n);
    }
  }

  /** Requests of one caller in one minute that none of its roles allowed, after the first. */
  private static final class Denials {
    private final AuditActor actor;
    private final String needs;
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();

    Denials(AuditActor actor, String needs) {
      this.actor = actor;
      this.needs = needs;
    }

    void add(String request, long n) {
      // Paths carry ids: past MAX_REQUESTS distinct ones, the rest are counted together.
      var key =
          requests.containsKey(request) || requests.size() < MAX_REQUESTS ? request : OTHER_SOURCES;
      requests.computeIfAbsent(key, r -> new LongAdder()).add(n);
    }
  }

  static final int MAX_REQUESTS = 20;

  private final Map<Key, Bucket> buckets = new ConcurrentHashMap<>();
  private final Map<Key, Denials> denials = new ConcurrentHashMap<>();
  private final AuditLog log;
  private final String replica;
  private final Clock clock;

  public AuthFailureCounts(AuditLog log, String replica, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.replica = replica;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void refused(String sourceIp, String reason) {
    long minute = clock.millis() / MINUTE_MS;
    var source = sourceIp == null ? "unknown" : sourceIp;
    var key = new Key(source, minute);
    if (!buckets.containsKey(key) && buckets.size() >= MAX_SOURCES) {
      key = new Key(OTHER_SOURCES, minute);
    }
    buckets.computeIfAbsent(key, k -> new Bucket()).add(reason, 1);
  }

  /**
   * Writes the first {@code auth.denied} of a caller in a minute at once (evidence with a name on
   * it, without delay), and counts the rest of that minute into one event written when the minute
   * is over, so that a caller looping on a forbidden call costs two rows a minute, not one per
   * request. Callers are told apart by token subject; past {@value #MAX_SOURCES} in one minute the
   * rest are counted together under {@code "*"}. A failure to write is logged; the request is
   * refused either way.
   */
  @Override
  public void denied(Caller caller, String request, String needs) {
    long minute = clock.millis() / MINUTE_MS;
    var key = new Key(caller.principal().subject(), minute);
    if (!denials.containsKey(key) && denials.size() >= MAX_SOURCES) {
      key = new Key(OTHER_SOURCES, minute);
    }
    var first = new boolean[1];
    var actor = AuditActors.of(caller);
    var bucket =
        denials.computeIfAbsent(
            key,
            k -> {
              first[0] = true;
              return new Denials(actor, needs);
            });
    if (!first[0]) {
      bucket.add(request, 1);
      return;
    }
    try {
      log.record(
          AuditEntry.builder(
                  clock.instant(), AuditActors.of(caller), AuditActions.AUTH_DENIED, "api/request")
              .outcome(Outcome.DENIED)
              .details(Map.of("request", request, "needs", needs))
              .build());
    } catch (RuntimeException e) {
      LOG.warn(
          "could not write an auth.denied event for {}: {}",
          LogEscape.of(request),
          LogEscape.of(e.toString()));
    }
  }

  /** Writes the minutes that are over; with {@code all}, the current one too (at shutdown). */
  public void flush(boolean all) {
    flushFailures(all);
    flushDenials(all);
  }

  private void flushDenials(boolean all) {
    long current = clock.millis() / MINUTE_MS;
    var entries = new ArrayList<AuditEntry>();
    var taken = new ArrayList<Map.Entry<Key, Denials>>();
    for (var key : List.copyOf(denials.keySet())) {
      if (all || key.minute() < current) {
        var bucket = denials.remove(key);
        if (bucket != null && !bucket.requests.isEmpty()) {
          taken.add(Map.entry(key, bucket));
          entries.add(denialEntry(key, bucket));
        }
      }
    }
    if (entries.isEmpty()) {
      return;
    }
    try {
      log.record(entries);
    } catch (RuntimeException e) {
      LOG.warn("could not write {} auth.denied events yet: {}", entries.size(), e.toString());
      for (var t : taken) {
        var again = denials.computeIfAbsent(t.getKey(), k -> t.getValue());
        if (again != t.getValue()) {
          t.getValue().requests.forEach((r, n) -> again.add(r, n.sum()));
        }
      }
    }
  }

  private AuditEntry denialEntry(Key key, Denials bucket) {
    var requests = new TreeMap<String, Long>();
    bucket.requests.forEach((request, n) -> requests.put(request, n.sum()));
    long count = requests.values().stream().mapToLong(Long::longValue).sum();
    var start = Instant.ofEpochMilli(key.minute() * MINUTE_MS);
    var actor =
        key.who().equals(OTHER_SOURCES) ? AuditActors.anonymous(OTHER_SOURCES) : bucket.actor;
    return AuditEntry.builder(clock.instant(), actor, AuditActions.AUTH_DENIED, "api/request")
        .outcome(Outcome.DENIED)
        .details(
            Map.of(
                "count",
                count,
                "requests",
                requests,
                "needs",
                bucket.needs,
                "coalesced",
                true,
                "windowStart",
                start.toString(),
                "windowEnd",
                start.plusSeconds(60).toString(),
                "replica",
                replica == null ? "" : replica))
        .build();
  }

  private void flushFailures(boolean all) {
    long current = clock.millis() / MINUTE_MS;
    var taken =
        new TreeMap<Key, Bucket>(
            java.util.Comparator.comparing(Key::minute).thenComparing(Key::who));
    for (var key : List.copyOf(buckets.keySet())) {
      if (all || key.minute() < current) {
        var bucket = buckets.remove(key);
        if (bucket != null) {
          taken.put(key, bucket);
        }
      }
    }
    if (taken.isEmpty()) {
      return;
    }
    var entries = new ArrayList<AuditEntry>();
    taken.forEach((key, bucket) -> entries.add(entry(key, bucket)));
    try {
      log.record(entries);
    } catch (RuntimeException e) {
      // The requests were refused anyway; keep the counts for the next flush.
      LOG.warn("could not write {} auth.failure events yet: {}", entries.size(), e.toString());
      taken.forEach(
          (key, bucket) ->
              bucket.reasons.forEach(
                  (reason, n) ->
                      buckets.computeIfAbsent(key, k -> new Bucket()).add(reason, n.sum())));
    }
  }

  private AuditEntry entry(Key key, Bucket bucket) {
    var reasons = new TreeMap<String, Long>();
    bucket.reasons.forEach((reason, n) -> reasons.put(reason, n.sum()));
    long count = reasons.values().stream().mapToLong(Long::longValue).sum();
    var start = Instant.ofEpochMilli(key.minute() * MINUTE_MS);
    return AuditEntry.builder(
            clock.instant(),
            AuditActors.anonymous(key.who()),
            AuditActions.AUTH_FAILURE,
            "auth/token")
        .outcome(Outcome.DENIED)
        .details(
            Map.of(
                "count",
                count,
                "reasons",
                reasons,
                "windowStart",
                start.toString(),
                "windowEnd",
                start.plusSeconds(60).toString(),
                "replica",
                replica == null ? "" : replica))
        .build();
  }
}
