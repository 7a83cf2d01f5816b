package io.trainyard.gateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.api.WebhookRequest;
import io.trainyard.gateway.audit.AuditChainHead;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.config.WebhooksConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.InsertResult;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobIds;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.JobState;
import io.trainyard.testkit.MutableClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The outbox and its leases, on H2 and PostgreSQL: events written with the job change or not at
 * all, deliveries leased to one replica at a time, attempts recorded only under the lease, webhook
 * changes audited without their secret.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WebhookStoreContract {
  private static final Instant T0 = Instant.parse("2030-01-02T03:04:05.123456Z");
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final AuditActor ADMIN =
      new AuditActor("subject-dave", "dave", "cli", "127.0.0.1", "req-1");
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestDatabase db;
  private MutableClock clock;
  private WebhookStore webhooks;
  private WebhookAdmin admin;
  private WebhookSecrets secrets;
  private JobAudit outbox;
  private JobStore jobs;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    clock = new MutableClock(T0);
    webhooks = new WebhookStore(db.jdbi(), clock);
    secrets = new WebhookSecrets(new byte[32]);
    var policy = new ReceiverPolicy(new WebhooksConfig(), Set::of);
    admin =
        new WebhookAdmin(
            webhooks, secrets, policy, new AuditLog(db.jdbi(), new AuditChainHead(), true));
    outbox =
        new WebhookOutbox(
            JobAudit.NONE,
            webhooks,
            new JobEvents("test", jobId -> Map.of("loss", 0.25)),
            () -> {},
            clock);
    jobs = new JobStore(db.jdbi(), clock, outbox);
  }

  @BeforeEach
  void empty() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM webhook_attempts");
              h.execute("DELETE FROM webhook_deliveries");
              h.execute("DELETE FROM webhooks");
              h.execute("DELETE FROM idempotency_keys");
              h.execute("DELETE FROM job_events");
              h.execute("DELETE FROM stale_attempts");
              h.execute("DELETE FROM jobs");
            });
    clock.set(T0);
  }

  @Test
  void eachStateChangeIsOneEventDeliveredToEachWebhookThatWantsIt() throws Exception {
    hook("nlp", "all-live", List.of("io.trainyard.job.pending", "io.trainyard.job.submitted"));
    hook("nlp", "ends", null);
    hook("nlp", "also-pending", List.of("io.trainyard.job.pending"));
    admin.put(
        "nlp",
        "off",
        new WebhookRequest("http://ci.example.com/off", null, false, null),
        ADMIN,
        "dave");
    hook("vision", "theirs", List.of("io.trainyard.job.pending"));

    var job = insert(newJob("nlp", "bert"));
    var pending = webhooks.deliveriesOfJob(job.id());
    assertThat(pending)
        .extracting(Delivery::webhookId)
        .containsExactlyInAnyOrder("all-live", "also-pending");
    assertThat(pending).extracting(Delivery::eventId).containsOnly(pending.get(0).eventId());
    assertThat(pending.get(0).body()).isEqualTo(pending.get(1).body());

    var event = JSON.readTree(pending.get(0).body());
    assertThat(event.get("specversion").asText()).isEqualTo("1.0");
    assertThat(event.get("id").asText()).isEqualTo(pending.get(0).eventId());
    assertThat(event.get("type").asText()).isEqualTo("io.trainyard.job.pending");
    assertThat(event.get("source").asText()).isEqualTo("/trainyard/test/jobs");
    assertThat(event.get("subject").asText()).isEqualTo(job.id());
    assertThat(event.get("datacontenttype").asText()).isEqualTo("application/json");
    var data = event.get("data");
    assertThat(data.get("team").asText()).isEqualTo("nlp");
    assertThat(data.get("state").asText()).isEqualTo("PENDING");
    assertThat(data.get("backend").asText()).isEqualTo("local");
    assertThat(data.get("outputUri").asText()).isEqualTo("s3://models/bert/");
    assertThat(data.get("cost").get("estimatedUsd").asText()).isEqualTo("2.5");
    assertThat(data.get("metrics").get("loss").asDouble()).isEqualTo(0.25);

    var leased = jobs.claim("replica-a", LEASE, 10).get(0);
    clock.advance(Duration.ofSeconds(10));
    var succeeded =
        leased.toBuilder()
            .state(JobState.SUBMITTED)
            .submittedAt(clock.instant())
            .externalRefJson("{\"pid\":1}")
            .build();
    assertThat(jobs.update(succeeded, leased.version(), "replica-a", List.of())).isTrue();
    var all = webhooks.deliveriesOfJob(job.id());
    assertThat(all).hasSize(3);
    var submitted = all.get(2);
    assertThat(submitted.webhookId()).isEqualTo("all-live");
    assertThat(submitted.eventType()).isEqualTo("io.trainyard.job.submitted");
    assertThat(submitted.eventId()).isNotEqualTo(pending.get(0).eventId());
    assertThat(JSON.readTree(submitted.body()).get("data").get("previousState").asText())
        .isEqualTo("PENDING");
  }

  @Test
  void aChangeThatRollsBackLeavesNoEvent() {
    hook("nlp", "all-live", List.of("io.trainyard.job.pending"));
    var failing =
        new JobStore(
            db.jdbi(),
            clock,
            new JobAudit() {
              @Override
              public void submitted(Handle h, JobRow stored, AuditActor actor) {
                outbox.submitted(h, stored, actor);
                throw new IllegalStateException("audit down");
              }

              @Override
              public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {}

              @Override
              public void changed(Handle h, JobRow before, JobRow after, String replica) {}

              @Override
              public void cancelRequested(Handle h, JobRow job, AuditActor actor) {}

              @Override
              public void adopted(Handle h, JobRow job, String previous, String replica) {}

              @Override
              public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {}
            });
    var job = newJob("nlp", "bert");
    assertThatThrownBy(() -> failing.insert(job, submittedEvent(job), null))
        .hasMessageContaining("audit down");
    assertThat(webhooks.deliveriesOfJob(job.id())).isEmpty();
    assertThat(webhooks.deliveries("nlp", null, 50)).isEmpty();
  }

  @Test
  void aDeliveryIsLeasedToOneReplicaAndItsAttemptRecordedOnlyUnderTheLease() {
    hook("nlp", "all-live", List.of("io.trainyard.job.pending"));
    insert(newJob("nlp", "bert"));

    var a = webhooks.claim("a", LEASE, 10);
    assertThat(a).hasSize(1);
    assertThat(webhooks.claim("b", LEASE, 10)).isEmpty();

    clock.advance(LEASE.plusSeconds(1));
    var b = webhooks.claim("b", LEASE, 10);
    assertThat(b).extracting(Delivery::id).containsExactly(a.get(0).id());
    var lateA = attempt(1, 500, "the receiver answered 500");
    assertThat(webhooks.recordAttempt(a.get(0), lateA, Delivery.Status.PENDING, clock.instant()))
        .isFalse();

    var retryAt = clock.instant().plusSeconds(30);
    assertThat(
            webhooks.recordAttempt(
                b.get(0),
                attempt(1, 500, "the receiver answered 500"),
                Delivery.Status.PENDING,
                retryAt))
        .isTrue();
    assertThat(webhooks.claim("a", LEASE, 10)).as("not due before its next attempt").isEmpty();
    clock.advance(Duration.ofSeconds(30));
    var again = webhooks.claim("a", LEASE, 10);
    assertThat(again).hasSize(1);
    assertThat(again.get(0).attempts()).isEqualTo(1);
    assertThat(
            webhooks.recordAttempt(
                again.get(0), attempt(2, 204, null), Delivery.Status.DELIVERED, null))
        .isTrue();
    clock.advance(Duration.ofHours(1));
    assertThat(webhooks.claim("a", LEASE, 10)).as("delivered: never again").isEmpty();

    var listed = webhooks.deliveries("nlp", null, 50);
    assertThat(listed).hasSize(1);
    var delivery = listed.get(0);
    assertThat(delivery.status()).isEqualTo(Delivery.Status.DELIVERED);
    assertThat(delivery.attempts()).isEqualTo(2);
    assertThat(delivery.lastStatusCode()).isEqualTo(204);
    assertThat(delivery.attemptLog())
        .extracting(Delivery.Attempt::statusCode)
        .containsExactly(500, 204);
    assertThat(delivery.attemptLog().get(0).error()).isEqualTo("the receiver answered 500");
    assertThat(webhooks.deliveries("nlp", "other-hook", 50)).isEmpty();
    assertThat(webhooks.deliveries("vision", null, 50)).isEmpty();
  }

  @Test
  void concurrentReplicasEachWinEveryDeliveryOnce() throws Exception {
    hook("nlp", "all-live", List.of("io.trainyard.job.pending"));
    for (int i = 0; i < 12; i++) {
      insert(newJob("nlp", "job-" + i));
    }
    var won = new ConcurrentHashMap<String, String>();
    var duplicates = new ArrayList<String>();
    var start = new CountDownLatch(1);
    var pool = Executors.newFixedThreadPool(4);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int r = 0; r < 4; r++) {
        var owner = "replica-" + r;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (var d : webhooks.claim(owner, LEASE, 12)) {
                    if (won.putIfAbsent(d.id(), owner) != null) {
                      synchronized (duplicates) {
                        duplicates.add(d.id());
                      }
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (var f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(duplicates).isEmpty();
    assertThat(won).hasSize(12);
  }

  @Test
  void webhookChangesAreAuditedAndTheSecretIsStoredSealed() {
    var created =
        admin.put(
            "nlp",
            "deploy",
            new WebhookRequest("https://ci.example.com/hook", null, null, null),
            ADMIN,
            "dave");
    assertThat(created.created()).isTrue();
    var secret = created.view().secret();
    assertThat(secret).startsWith(WebhookSecrets.GENERATED_PREFIX);
    assertThat(created.view().eventTypes()).isEqualTo(JobEvents.DEFAULT_TYPES);

    var stored = webhooks.find("nlp", "deploy").orElseThrow();
    assertThat(stored.secretSealed()).doesNotContain(secret);
    assertThat(secrets.decrypt("nlp", "deploy", stored.secretSealed())).isEqualTo(secret);
    assertThatThrownBy(() -> secrets.decrypt("vision", "deploy", stored.secretSealed()))
        .isInstanceOf(IllegalStateException.class);

    var changed =
        admin.put(
            "nlp",
            "deploy",
            new WebhookRequest("https://ci.example.com/v2", null, false, null),
            ADMIN,
            "dave");
    assertThat(changed.created()).isFalse();
    assertThat(changed.view().secret()).isNull();
    var after = webhooks.find("nlp", "deploy").orElseThrow();
    assertThat(after.enabled()).isFalse();
    assertThat(after.createdAt()).isEqualTo(stored.createdAt());
    assertThat(secrets.decrypt("nlp", "deploy", after.secretSealed())).isEqualTo(secret);

    assertThat(admin.delete("nlp", "deploy", ADMIN)).isTrue();
    assertThat(admin.delete("nlp", "deploy", ADMIN)).isFalse();
    assertThat(webhooks.find("nlp", "deploy")).isEmpty();

    var events =
        db.jdbi()
            .withHandle(
                h ->
                    h.createQuery(
                            "SELECT action, details FROM audit_events WHERE resource = :r"
                                + " ORDER BY seq")
                        .bind("r", "webhook/nlp/deploy")
                        .map((rs, ctx) -> rs.getString(1) + " " + rs.getString(2))
                        .list());
    assertThat(events).hasSize(3);
    assertThat(events.get(0)).startsWith("webhook.put").contains("\"secretGenerated\":true");
    assertThat(events.get(1)).startsWith("webhook.put").contains("\"secretChanged\":false");
    assertThat(events.get(2)).startsWith("webhook.delete");
    assertThat(String.join("\n", events)).doesNotContain(secret);
  }

  @Test
  void refusalsNameTheField() {
    assertThatThrownBy(
            () ->
                admin.put(
                    "nlp",
                    "x",
                    new WebhookRequest(
                        "ftp://ci.example.com/", List.of("io.trainyard.job.done"), null, "short"),
                    ADMIN,
                    "dave"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .extracting(f -> f.field())
                    .containsExactly("url", "eventTypes[0]", "secret"));
    assertThat(webhooks.list("nlp")).isEmpty();
  }

  private void hook(String team, String id, List<String> types) {
    admin.put(
        team,
        id,
        new WebhookRequest("http://ci.example.com/" + id, types, null, "s3cret-s3cret-s3cret"),
        ADMIN,
        "dave");
  }

  private Delivery.Attempt attempt(int n, Integer code, String error) {
    return new Delivery.Attempt(n, clock.instant(), code, error, 12, "test");
  }

  private JobRow newJob(String team, String name) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team(team)
        .ownerSubject("subject-alice")
        .ownerUsername("alice")
        .name(name)
        .state(JobState.PENDING)
        .attempt(1)
        .specJson(
            "{\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":{\"output\":{\"uri\":\"s3://models/bert/\"}}}")
        .specHash("a".repeat(64))
        .decisionJson("{\"offers\":[]}")
        .offerIndex(0)
        .backendId("local")
        .hourlyUsd(new BigDecimal("1.25"))
        .estimatedUsd(new BigDecimal("2.5"))
        .createdAt(clock.instant())
        .build();
  }

  private static JobEvent submittedEvent(JobRow job) {
    return JobEvent.of(job.id(), job.createdAt(), JobEvent.SUBMITTED, "accepted");
  }

  private JobRow insert(JobRow job) {
    var result = jobs.insert(job, submittedEvent(job), null);
    assertThat(result).isInstanceOf(InsertResult.Created.class);
    return ((InsertResult.Created) result).job();
  }
}
