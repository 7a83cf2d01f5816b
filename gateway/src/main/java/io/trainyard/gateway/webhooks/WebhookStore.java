package io.trainyard.gateway.webhooks;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The {@code webhooks}, {@code webhook_deliveries} (the outbox) and {@code webhook_attempts}
 * tables. Deliveries are leased as {@code JobStore.claim} leases jobs: each row is won by one
 * conditional update on its version, so of several replicas exactly one attempts a delivery at a
 * time, and an attempt is recorded only while its lease holds. Times are kept to microseconds.
 * Thread-safe.
 */
public final class WebhookStore {
  private static final String WEBHOOK_COLUMNS =
      "team, id, url, event_types, enabled, secret_sealed, created_at, updated_at, updated_by";
  private static final String DELIVERY_COLUMNS =
      "id, event_id, event_type, team, webhook_id, job_id, body, status, attempts, created_at,"
          + " next_attempt_at, last_attempt_at, last_status_code, last_error, lease_owner, version";

  private static final RowMapper<Webhook> WEBHOOK =
      (rs, ctx) ->
          new Webhook(
              rs.getString("team"),
              rs.getString("id"),
              rs.getString("url"),
              Arrays.stream(rs.getString("event_types").split(","))
                  .filter(s -> !s.isEmpty())
                  .toList(),
              rs.getBoolean("enabled"),
              rs.getString("secret_sealed"),
              instant(rs, "created_at"),
              instant(rs, "updated_at"),
              rs.getString("updated_by"));

  private static final RowMapper<Delivery> DELIVERY =
      (rs, ctx) ->
          new Delivery(
              rs.getString("id"),
              rs.getString("event_id"),
              rs.getString("event_type"),
              rs.getString("team"),
              rs.getString("webhook_id"),
              rs.getString("job_id"),
              rs.getString("body"),
              Delivery.Status.valueOf(rs.getString("status")),
              rs.getInt("attempts"),
              instant(rs, "created_at"),
              instant(rs, "next_attempt_at"),
              instant(rs, "last_attempt_at"),
              (Integer) rs.getObject("last_status_code", Integer.class),
              rs.getString("last_error"),
              rs.getString("lease_owner"),
              rs.getLong("version"),
              List.of());

  private final Jdbi jdbi;
  private final Clock clock;

  public WebhookStore(Jdbi jdbi, Clock clock) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  public Optional<Webhook> find(String team, String id) {
    return jdbi.withHandle(h -> find(h, team, id));
  }

  public Optional<Webhook> find(Handle h, String team, String id) {
    return h.createQuery(
            "SELECT " + WEBHOOK_COLUMNS + " FROM webhooks WHERE team = :team AND id = :id")
        .bind("team", team)
        .bind("id", id)
        .map(WEBHOOK)
        .findOne();
  }

  public List<Webhook> list(String team) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT " + WEBHOOK_COLUMNS + " FROM webhooks WHERE team = :team ORDER BY id")
                .bind("team", team)
                .map(WEBHOOK)
                .list());
  }

  /** The team's enabled webhooks, read inside the transaction of a job change. */
  List<Webhook> enabled(Handle h, String team) {
    return h.createQuery(
            "SELECT "
                + WEBHOOK_COLUMNS
                + " FROM webhooks WHERE team = :team AND enabled = TRUE ORDER BY id")
        .bind("team", team)
        .map(WEBHOOK)
        .list();
  }

  /** Inserts or replaces {@code webhook} (by team and id) in the caller's transaction. */
  public void put(Handle h, Webhook webhook) {
    int n =
        h.createUpdate(
                "UPDATE webhooks SET url = :url, event_types = :types, enabled = :enabled,"
                    + " secret_sealed = :sealed, updated_at = :updatedAt, updated_by = :by"
                    + " WHERE team = :team AND id = :id")
            .bind("url", webhook.url())
            .bind("types", String.join(",", webhook.eventTypes()))
            .bind("enabled", webhook.enabled())
            .bind("sealed", webhook.secretSealed())
            .bind("updatedAt", utc(webhook.updatedAt()))
            .bind("by", webhook.updatedBy())
            .bind("team", webhook.team())
            .bind("id", webhook.id())
            .execute();
    if (n == 0) {
      h.createUpdate(
              "INSERT INTO webhooks ("
                  + WEBHOOK_COLUMNS
                  + ") VALUES (:team, :id, :url, :types, :enabled, :sealed, :createdAt,"
                  + " :updatedAt, :by)")
          .bind("team", webhook.team())
          .bind("id", webhook.id())
          .bind("url", webhook.url())
          .bind("types", String.join(",", webhook.eventTypes()))
          .bind("enabled", webhook.enabled())
          .bind("sealed", webhook.secretSealed())
          .bind("createdAt", utc(webhook.createdAt()))
          .bind("updatedAt", utc(webhook.updatedAt()))
          .bind("by", webhook.updatedBy())
          .execute();
    }
  }

  /** Deletes a webhook in the caller's transaction; its deliveries stay, as history. */
  public boolean delete(Handle h, String team, String id) {
    return h.createUpdate("DELETE FROM webhooks WHERE team = :team AND id = :id")
            .bind("team", team)
            .bind("id", id)
            .execute()
        == 1;
  }

  /** Adds deliveries to the outbox in the caller's transaction (that of the job change). */
  void enqueue(Handle h, List<Delivery> deliveries) {
    if (deliveries.isEmpty()) {
      return;
    }
    var batch =
        h.prepareBatch(
            "INSERT INTO webhook_deliveries ("
                + DELIVERY_COLUMNS
                + ") VALUES (:id, :eventId, :eventType, :team, :webhookId, :jobId, :body, :status,"
                + " 0, :createdAt, :next, NULL, NULL, NULL, NULL, 0)");
    for (var d : deliveries) {
      batch
          .bind("id", d.id())
          .bind("eventId", d.eventId())
          .bind("eventType", d.eventType())
          .bind("team", d.team())
          .bind("webhookId", d.webhookId())
          .bind("jobId", d.jobId())
          .bind("body", d.body())
          .bind("status", Delivery.Status.PENDING.name())
          .bind("createdAt", utc(d.createdAt()))
          .bind("next", utc(d.nextAttemptAt()))
          .add();
    }
    batch.execute();
  }

  /**
   * Leases up to {@code max} due deliveries (PENDING, next attempt reached, lease free or lapsed)
   * to {@code owner} for {@code lease}.
   *
   * @return the rows won, as now stored
   */
  public List<Delivery> claim(String owner, Duration lease, int max) {
    var now = now();
    var until = now.plus(lease);
    return jdbi.withHandle(
        h -> {
          var candidates =
              h.createQuery(
                      "SELECT "
                          + DELIVERY_COLUMNS
                          + " FROM webhook_deliveries WHERE status = :pending"
                          + " AND next_attempt_at <= :now"
                          + " AND (lease_owner IS NULL OR lease_until <= :now)"
                          + " ORDER BY next_attempt_at, id LIMIT :limit")
                  .bind("pending", Delivery.Status.PENDING.name())
                  .bind("now", utc(now))
                  .bind("limit", 2 * max)
                  .map(DELIVERY)
                  .list();
          var won = new ArrayList<Delivery>();
          for (var c : candidates) {
            if (won.size() == max) {
              break;
            }
            int n =
                h.createUpdate(
                        "UPDATE webhook_deliveries SET lease_owner = :owner, lease_until = :until,"
                            + " version = version + 1 WHERE id = :id AND version = :version")
                    .bind("owner", owner)
                    .bind("until", utc(until))
                    .bind("id", c.id())
                    .bind("version", c.version())
                    .execute();
            if (n == 1) {
              won.add(
                  new Delivery(
                      c.id(),
                      c.eventId(),
                      c.eventType(),
                      c.team(),
                      c.webhookId(),
                      c.jobId(),
                      c.body(),
                      c.status(),
                      c.attempts(),
                      c.createdAt(),
                      c.nextAttemptAt(),
                      c.lastAttemptAt(),
                      c.lastStatusCode(),
                      c.lastError(),
                      owner,
                      c.version() + 1,
                      List.of()));
            }
          }
          return won;
        });
  }

  /**
   * Records attempt {@code attempt} of a leased delivery and its outcome, releasing the lease, in
   * one transaction; only if the delivery is still at its leased version.
   *
   * @param next the next attempt's time while {@code status} is PENDING, else null
   * @return false, having written nothing, when the lease was lost
   */
  public boolean recordAttempt(
      Delivery leased, Delivery.Attempt attempt, Delivery.Status status, Instant next) {
    return jdbi.inTransaction(
        h -> {
          int n =
              h.createUpdate(
                      "UPDATE webhook_deliveries SET status = :status, attempts = :attempts,"
                          + " next_attempt_at = :next, last_attempt_at = :at,"
                          + " last_status_code = :code, last_error = :error,"
                          + " lease_owner = NULL, lease_until = NULL, version = version + 1"
                          + " WHERE id = :id AND version = :version AND lease_owner = :owner")
                  .bind("status", status.name())
                  .bind("attempts", attempt.attempt())
                  .bind("next", utc(next))
                  .bind("at", utc(attempt.at()))
                  .bind("code", attempt.statusCode())
                  .bind("error", attempt.error())
                  .bind("id", leased.id())
                  .bind("version", leased.version())
                  .bind("owner", leased.leaseOwner())
                  .execute();
          if (n != 1) {
            return false;
          }
          h.createUpdate(
                  "INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code,"
                      + " error, duration_ms, replica) VALUES (:id, :attempt, :at, :code, :error,"
                      + " :duration, :replica)")
              .bind("id", leased.id())
              .bind("attempt", attempt.attempt())
              .bind("at", utc(attempt.at()))
              .bind("code", attempt.statusCode())
              .bind("error", attempt.error())
              .bind("duration", attempt.durationMs())
              .bind("replica", attempt.replica())
              .execute();
          return true;
        });
  }

  /**
   * The team's deliveries, newest first, each with its attempts.
   *
   * @param webhookId only this webhook's, or all when null
   */
  public List<Delivery> deliveries(String team, String webhookId, int limit) {
    return jdbi.withHandle(
        h -> {
          var query =
              h.createQuery(
                      "SELECT "
                          + DELIVERY_COLUMNS
                          + " FROM webhook_deliveries WHERE team = :team"
                          + (webhookId == null ? "" : " AND webhook_id = :webhook")
                          + " ORDER BY created_at DESC, id DESC LIMIT :limit")
                  .bind("team", team)
                  .bind("limit", limit);
          if (webhookId != null) {
            query.bind("webhook", webhookId);
          }
          var found = query.map(DELIVERY).list();
          var result = new ArrayList<Delivery>(found.size());
          for (var d : found) {
            result.add(d.withAttempts(attempts(h, d.id())));
          }
          return result;
        });
  }

  /** The deliveries of one job's events, oldest first (tests and support). */
  public List<Delivery> deliveriesOfJob(String jobId) {
    return jdbi.withHandle(
        h -> {
          var found =
              h.createQuery(
                      "SELECT "
                          + DELIVERY_COLUMNS
                          + " FROM webhook_deliveries WHERE job_id = :job ORDER BY created_at, id")
                  .bind("job", jobId)
                  .map(DELIVERY)
                  .list();
          var result = new ArrayList<Delivery>(found.size());
          for (var d : found) {
            result.add(d.withAttempts(attempts(h, d.id())));
          }
          return result;
        });
  }

  private static List<Delivery.Attempt> attempts(Handle h, String deliveryId) {
    return h.createQuery(
            "SELECT attempt, attempted_at, status_code, error, duration_ms, replica"
                + " FROM webhook_attempts WHERE delivery_id = :id ORDER BY attempt")
        .bind("id", deliveryId)
        .map(
            (rs, ctx) ->
                new Delivery.Attempt(
                    rs.getInt("attempt"),
                    instant(rs, "attempted_at"),
                    (Integer) rs.getObject("status_code", Integer.class),
                    rs.getString("error"),
                    rs.getLong("duration_ms"),
                    rs.getString("replica")))
        .list();
  }

  static Argument utc(Instant t) {
    return (position, statement, ctx) -> {
      if (t == null) {
        statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
      } else {
        statement.setObject(position, t.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
      }
    };
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    var t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
