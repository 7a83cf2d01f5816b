package io.trainyard.gateway.db;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;

/**
 * {@code GET /v1/spend}: the jobs whose running time overlaps a window, with their price and
 * routing evidence, read by team through the (team, started_at) index. Plain SQL that H2 and
 * PostgreSQL read alike. Thread-safe.
 */
public final class JobRuns {
  /**
   * One job's run.
   *
   * @param backendId where it ran
   * @param hourlyUsd the price of the offer it ran on; null when unpriced
   * @param endedAt null while it runs
   * @param decisionJson the routing decision it was placed by: every candidate and its price
   */
  public record Run(
      String id,
      String team,
      String backendId,
      BigDecimal hourlyUsd,
      Instant startedAt,
      Instant endedAt,
      String decisionJson) {}

  private final Jdbi jdbi;

  public JobRuns(Jdbi jdbi) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
  }

  /**
   * Jobs that started before {@code until} and had not ended by {@code since}, oldest start first.
   *
   * @param teams only these teams; null for every team, empty for none
   */
  public List<Run> overlapping(Set<String> teams, Instant since, Instant until) {
    if (teams != null && teams.isEmpty()) {
      return List.of();
    }
    var sql =
        "SELECT id, team, backend_id, hourly_usd, started_at, ended_at, decision_json FROM jobs"
            + " WHERE started_at IS NOT NULL AND started_at < :until"
            + " AND (ended_at IS NULL OR ended_at > :since)"
            + (teams == null ? "" : " AND team IN (<teams>)")
            + " ORDER BY started_at, id";
    return jdbi.withHandle(
        h -> {
          var q =
              h.createQuery(sql)
                  .bind("since", JobColumns.utc(since))
                  .bind("until", JobColumns.utc(until));
          if (teams != null) {
            q.bindList("teams", teams.stream().sorted().toList());
          }
          return q.map(
                  (rs, ctx) ->
                      new Run(
                          rs.getString("id"),
                          rs.getString("team"),
                          rs.getString("backend_id"),
                          rs.getBigDecimal("hourly_usd"),
                          JobColumns.instant(rs, "started_at"),
                          JobColumns.instant(rs, "ended_at"),
                          rs.getString("decision_json")))
              .list();
        });
  }
}
