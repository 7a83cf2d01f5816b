package io.trainyard.gateway.audit;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * Leases on named singleton jobs of the audit trail (the digest signer, the daily export), so that
 * one replica at a time does them: the pattern of {@code JobStore.claim} on a one-row-per-job
 * table. A lease is taken, or renewed by its holder, with one conditional UPDATE; lease times come
 * from the clock, so replicas' clocks must agree to well within a lease. Thread-safe.
 */
public final class AuditLeases {
  /** Unique or primary key violation: the same SQLState on H2 and PostgreSQL. */
  private static final String UNIQUE_VIOLATION = "23505";

  private final Jdbi jdbi;
  private final Clock clock;

  public AuditLeases(Jdbi jdbi, Clock clock) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Takes or renews lease {@code name} for {@code owner}; false when another holds it. */
  public boolean hold(String name, String owner, Duration lease) {
    ensure(name);
    var now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    return jdbi.withHandle(
            h ->
                h.createUpdate(
                        "UPDATE audit_leases SET lease_owner = :owner, lease_until = :until"
                            + " WHERE name = :name AND (lease_owner IS NULL"
                            + " OR lease_until <= :now OR lease_owner = :owner)")
                    .bind("owner", owner)
                    .bind("until", AuditRows.utc(now.plus(lease)))
                    .bind("now", AuditRows.utc(now))
                    .bind("name", name)
                    .execute())
        == 1;
  }

  /** Lets the lease go, so that another replica need not wait for it to lapse. */
  public void release(String name, String owner) {
    jdbi.useHandle(
        h ->
            h.createUpdate(
                    "UPDATE audit_leases SET lease_owner = NULL, lease_until = NULL"
                        + " WHERE name = :name AND lease_owner = :owner")
                .bind("name", name)
                .bind("owner", owner)
                .execute());
  }

  /** What the holders of {@code name} last recorded as done (e.g. the last exported day). */
  public Optional<String> lastDone(String name) {
    return jdbi.withHandle(
        h ->
            h.createQuery("SELECT last_done FROM audit_leases WHERE name = :name")
                .bind("name", name)
                .mapTo(String.class)
                .findOne()
                .filter(Objects::nonNull));
  }

  /** Records {@code done} if {@code owner} still holds the lease; false when it lost it. */
  public boolean markDone(String name, String owner, String done) {
    var now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    return jdbi.withHandle(
            h ->
                h.createUpdate(
                        "UPDATE audit_leases SET last_done = :done WHERE name = :name"
                            + " AND lease_owner = :owner AND lease_until > :now")
                    .bind("done", done)
                    .bind("name", name)
                    .bind("owner", owner)
                    .bind("now", AuditRows.utc(now))
                    .execute())
        == 1;
  }

  /** Creates the lease's row once; a concurrent creator winning is as good. */
  private void ensure(String name) {
    try {
      jdbi.useHandle(
          h -> {
            int exists =
                h.createQuery("SELECT COUNT(*) FROM audit_leases WHERE name = :name")
                    .bind("name", name)
                    .mapTo(Integer.class)
                    .one();
            if (exists == 0) {
              h.createUpdate("INSERT INTO audit_leases (name) VALUES (:name)")
                  .bind("name", name)
                  .execute();
            }
          });
    } catch (JdbiException e) {
      if (!isUniqueViolation(e)) {
        throw e;
      }
    }
  }

  private static boolean isUniqueViolation(Throwable e) {
    for (var t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
