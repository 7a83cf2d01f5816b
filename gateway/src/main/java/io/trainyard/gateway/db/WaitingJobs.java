package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The gateway's own knowledge of what waits on each backend: jobs it has placed there that have not
 * started ({@link #NOT_STARTED}: routed and not yet accepted, or accepted and not running). One
 * grouped query, read per quote. Plain SQL that H2 and PostgreSQL read alike. Thread-safe.
 */
public final class WaitingJobs {
  /** Placed on a backend and not running yet. */
  public static final List<String> NOT_STARTED =
      List.of(JobState.PENDING.name(), JobState.SUBMITTED.name());

  private final Jdbi jdbi;

  public WaitingJobs(Jdbi jdbi) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
  }

  /** Backend id → how many of this gateway's jobs wait there; backends with none are absent. */
  public Map<String, Long> byBackend() {
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
