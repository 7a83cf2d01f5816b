package io.trainyard.gateway.webhooks;

import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.db.AfterCommit;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.spi.JobState;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Objects;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * The transactional outbox of completion events: decorates the job audit so that every change of a
 * job's state, in the same transaction as the change, writes one event (one id) and a delivery of
 * it for each of the team's enabled webhooks that wants its type. An event exists if and only if
 * the change committed; the dispatcher is woken after the commit. Thread-safe.
 */
public final class WebhookOutbox implements JobAudit {
  private final JobAudit delegate;
  private final WebhookStore store;
  private final JobEvents events;
  private final Runnable afterCommit;
  private final Clock clock;

  /**
   * @param afterCommit run once a transaction that added deliveries has committed (wakes the
   *     dispatcher)
   */
  public WebhookOutbox(
      JobAudit delegate, WebhookStore store, JobEvents events, Runnable afterCommit, Clock clock) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.store = Objects.requireNonNull(store, "store");
    this.events = Objects.requireNonNull(events, "events");
    this.afterCommit = Objects.requireNonNull(afterCommit, "afterCommit");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void submitted(Handle h, JobRow stored, AuditActor actor) {
    delegate.submitted(h, stored, actor);
    emit(h, null, stored);
  }

  @Override
  public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
    delegate.refused(h, attempted, actor, reason);
  }

  @Override
  public void changed(Handle h, JobRow before, JobRow after, String replica) {
    delegate.changed(h, before, after, replica);
    if (before.state() != after.state()) {
      emit(h, before.state(), after);
    }
  }

  @Override
  public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
    delegate.cancelRequested(h, job, actor);
  }

  @Override
  public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
    delegate.adopted(h, job, previousReplica, replica);
  }

  @Override
  public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
    delegate.attemptCleanedUp(h, job, cleanup);
  }

  private void emit(Handle h, JobState from, JobRow job) {
    var type = JobEvents.type(job.state());
    var receivers = store.enabled(h, job.team()).stream().filter(w -> w.wants(type)).toList();
    if (receivers.isEmpty()) {
      return;
    }
    var now = clock.instant().truncatedTo(ChronoUnit.MICROS);
    var eventId = UUID.randomUUID().toString();
    var body = events.body(eventId, from, job, now);
    var deliveries = new ArrayList<Delivery>(receivers.size());
    for (var webhook : receivers) {
      deliveries.add(
          new Delivery(
              UUID.randomUUID().toString(),
              eventId,
              type,
              job.team(),
              webhook.id(),
              job.id(),
              body,
              Delivery.Status.PENDING,
              0,
              now,
              now,
              null,
              null,
              null,
              null,
              0,
              null));
    }
    store.enqueue(h, deliveries);
    AfterCommit.run(h, afterCommit);
  }
}
