package io.trainyard.gateway.db;

import io.trainyard.cost.Budget;
import io.trainyard.cost.JobCharge;
import io.trainyard.cost.MonthlySpend;
import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * A team's money as budgets see it: its row in {@code teams}, locked for a check, and its spend
 * read from its jobs. Checks happen inside the caller's transaction.
 */
final class TeamLedger {
  private TeamLedger() {}

  /** Creates the team's row once; a concurrent creator winning is as good. */
  static void ensureTeam(Jdbi jdbi, String team, Instant now) {
    try {
      jdbi.useHandle(
          h -> {
            var exists =
                h.createQuery("SELECT COUNT(*) FROM teams WHERE name = :team")
                    .bind("team", team)
                    .mapTo(Integer.class)
                    .one();
            if (exists == 0) {
              h.createUpdate("INSERT INTO teams (name, created_at) VALUES (:team, :at)")
                  .bind("team", team)
                  .bind("at", JobColumns.utc(now))
                  .execute();
            }
          });
    } catch (JdbiException e) {
      if (!JobInsertion.isUniqueViolation(e)) {
        throw e;
      }
    }
  }

  /** Locks the team's row until the transaction ends. */
  static void lock(Handle h, String team) {
    h.createQuery("SELECT name FROM teams WHERE name = :team FOR UPDATE")
        .bind("team", team)
        .mapTo(String.class)
        .findOne()
        .orElseThrow(() -> new NoTeamRow(team));
  }

  /** The team's row, which {@link #ensureTeam} makes, is not there to lock. */
  static final class NoTeamRow extends IllegalStateException {
    private final String team;

    NoTeamRow(String team) {
      super("team " + team + " has no row in teams");
      this.team = team;
    }

    String team() {
      return team;
    }
  }

  /** Locks the team's row until the transaction ends, then checks the job against the budget. */
  static Budget.Verdict lockAndCheck(
      Handle h, String team, Budget budget, BigDecimal jobUsd, Instant now) {
    lock(h, team);
    return check(h, team, budget, jobUsd, now);
  }

  /** Checks the job against the budget; the caller holds the team's row lock. */
  static Budget.Verdict check(
      Handle h, String team, Budget budget, BigDecimal jobUsd, Instant now) {
    return budget.check(spend(h, team, YearMonth.from(now.atZone(ZoneOffset.UTC)), now), jobUsd);
  }

  /**
   * The month's spend: every job that ran or is committed in it. QUEUED jobs wait for room and
   * count nothing.
   */
  static MonthlySpend spend(Handle h, String team, YearMonth month, Instant now) {
    var from = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var to = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var charges =
        h.createQuery(
                "SELECT state, hourly_usd, estimated_usd, started_at, ended_at FROM jobs"
                    + " WHERE team = :team AND state <> 'QUEUED' AND created_at < :to"
                    + " AND (ended_at IS NULL OR ended_at >= :from)")
            .bind("team", team)
            .bind("from", JobColumns.utc(from))
            .bind("to", JobColumns.utc(to))
            .map(
                (rs, ctx) ->
                    new JobCharge(
                        !JobState.valueOf(rs.getString("state")).isTerminal(),
                        rs.getBigDecimal("hourly_usd"),
                        rs.getBigDecimal("estimated_usd"),
                        JobColumns.instant(rs, "started_at"),
                        JobColumns.instant(rs, "ended_at")))
            .list();
    return MonthlySpend.of(charges, month, now);
  }
}
