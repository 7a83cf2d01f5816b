package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The gateway's own knowledge of what waits on each backend: jobs it has placed there that have not
 * started ({@link #NOT_STARTED}: routed and not yet accepted, or accepted and not running). One
 * grouped query, which every route (each quote, each submission) needs, read at most once per
 * {@link #MAX_AGE} (what other replicas wrote shows within that); in between, what this replica
 * commits moves the counts it keeps ({@link #moved}), so a submission does not count every job
 * again for the next one. Plain SQL that H2 and PostgreSQL read alike. Thread-safe.
 *
 * <p>A query that runs between a commit and its {@link #moved} (microseconds) already holds that
 * move, which the counts then take a second time until they are read again (at most {@code
 * MAX_AGE}): one job too many on one backend, for an estimate of how many wait ahead.
 */
public final class WaitingJobs {
  /** Placed on a backend and not running yet. */
  public static final List<String> NOT_STARTED =
      List.of(JobState.PENDING.name(), JobState.SUBMITTED.name());

  /** How long counts are reused before they are read again. */
  public static final Duration MAX_AGE = Duration.ofSeconds(1);

  private final Jdbi jdbi;
  private final Clock clock;
  private final AtomicLong writes = new AtomicLong();
  private volatile Counts last;

  /** Counts read when {@link #writes} stood at {@code writes}, moved along by later writes. */
  private record Counts(long writes, Instant readAt, Map<String, Long> byBackend) {}

  public WaitingJobs(Jdbi jdbi, Clock clock) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The backend {@code job} waits on, or null when it waits on none (running, queued, ended). */
  static String waitsOn(JobRow job) {
    return job != null && NOT_STARTED.contains(job.state().name()) ? job.backendId() : null;
  }

  /**
   * A job of this replica stopped waiting on backend {@code from} and started waiting on {@code to}
   * (either null for none), committed: the kept counts follow, if they hold every move before this
   * one; otherwise the next read asks the database.
   */
  synchronized void moved(String from, String to) {
    if (Objects.equals(from, to)) {
      return;
    }
    var now = writes.incrementAndGet();
    var kept = last;
    if (kept == null || kept.writes() != now - 1) {
      return;
    }
    var counts = new TreeMap<>(kept.byBackend());
    if (from != null) {
      counts.computeIfPresent(from, (backend, n) -> n <= 1 ? null : n - 1);
    }
    if (to != null) {
      counts.merge(to, 1L, Long::sum);
    }
    last = new Counts(now, kept.readAt(), Collections.unmodifiableMap(counts));
  }

  /** Backend id → how many of this gateway's jobs wait there; backends with none are absent. */
  public Map<String, Long> byBackend() {
    // Read before the query: a move committed while it runs makes the next call read again.
    var seen = writes.get();
    var now = clock.instant();
    var kept = last;
    if (kept != null
        && kept.writes() == seen
        && !now.isBefore(kept.readAt())
        && now.isBefore(kept.readAt().plus(MAX_AGE))) {
      return kept.byBackend();
    }
    var read = Collections.unmodifiableMap(read());
    last = new Counts(seen, now, read);
    return read;
  }

  private Map<String, Long> read() {
    return jdbi.withHandle(
        h ->
            countsByBackend(
                h.createQuery(
                        "SELECT backend_id, COUNT(*) FROM jobs WHERE state IN (<states>)"
                            + " AND backend_id IS NOT NULL GROUP BY backend_id")
                    .bindList("states", NOT_STARTED)));
  }

  /** A grouped count's rows (backend id, count) as a sorted map. */
  static Map<String, Long> countsByBackend(Query query) {
    var counts = new TreeMap<String, Long>();
    query
        .map((rs, ctx) -> Map.entry(rs.getString(1), rs.getLong(2)))
        .forEach(e -> counts.put(e.getKey(), e.getValue()));
    return counts;
  }
}
