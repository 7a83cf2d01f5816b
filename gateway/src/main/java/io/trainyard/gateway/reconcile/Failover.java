package io.trainyard.gateway.reconcile;

import io.trainyard.cost.Budget;
import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.spi.JobState;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * Moves a job whose attempt a backend refused to its next offer, as a new attempt: the budget is
 * asked again when that offer is dearer, and the job is queued (or failed) when no offer is left or
 * the budget has no room. Offers on a backend known down are passed over: a backend offers several
 * instance types, and a job refused by a failing one went to its next type there, only to be moved
 * again a step later.
 */
final class Failover {
  private final JobStore store;
  private final TeamDirectory teams;
  private final JobWrites writes;
  private final SubmitRetries retries;
  private final Predicate<String> down;
  private final Clock clock;

  /**
   * @param down whether a backend is known down now (a failed probe, refused credentials)
   */
  Failover(
      JobStore store,
      TeamDirectory teams,
      JobWrites writes,
      SubmitRetries retries,
      Predicate<String> down,
      Clock clock) {
    this.store = store;
    this.teams = teams;
    this.writes = writes;
    this.retries = retries;
    this.down = down;
    this.clock = clock;
  }

  private Instant now() {
    return clock.instant();
  }

  /** Moves the job to its next offer as a new attempt, or to QUEUED when none is left. */
  void apply(JobRow job, String owner, RoutingDecision decision, String why) {
    var nextIndex = job.offerIndex() + 1;
    var next = decision.offer(nextIndex);
    var passedOver = false;
    while (next.isPresent() && down.test(next.get().backendId())) {
      passedOver = true;
      next = decision.offer(++nextIndex);
    }
    if (next.isEmpty()) {
      if (job.state() == JobState.SUBMITTED) {
        // Only PENDING may be queued: step back first, as the table requires.
        job = writes.writeAndReload(job, owner, job.withState(JobState.PENDING, why, now()));
        if (job == null) {
          return;
        }
      }
      var none = passedOver ? "; no other offer on a backend that is up" : "; no other offer";
      writes.write(job, owner, job.withState(JobState.QUEUED, why + none, now()));
      return;
    }
    var offer = next.get();
    var moved =
        job.toBuilder()
            .state(JobState.PENDING)
            .attempt(job.attempt() + 1)
            .offerIndex(nextIndex)
            .backendId(offer.backendId())
            .hourlyUsd(offer.hourlyUsd())
            .estimatedUsd(offer.estimatedUsd())
            .externalRefJson(null)
            .reason(why)
            .updatedAt(now())
            .build();
    var event =
        JobEvent.of(
            job.id(),
            now(),
            JobEvent.FAILOVER,
            why + "; attempt " + moved.attempt() + " on " + offer.backendId());
    retries.done(job.id(), job.attempt());
    var budget = teams.budget(job.team());
    var extra = extraCost(job, moved);
    if (budget == null || extra.signum() <= 0) {
      if (writes.commit(job, owner, moved, List.of(event))) {
        writes.moved(job.id(), offer.backendId());
      }
      return;
    }
    // A dearer offer spends more of the month: the budget is asked again, as at submit.
    var over = store.promote(moved, job.version(), owner, List.of(event), budget, extra);
    if (over.isEmpty()) {
      writes.moved(job.id(), offer.backendId());
      return;
    }
    var overWhy = why + "; the next offer, " + offer.backendId() + ", is " + over.get().reason();
    if (budget.overBudget() == Budget.OverBudget.REFUSE) {
      writes.write(job, owner, job.withState(JobState.FAILED, overWhy, now()));
      return;
    }
    if (job.state() == JobState.SUBMITTED) {
      job = writes.writeAndReload(job, owner, job.withState(JobState.PENDING, why, now()));
      if (job == null) {
        return;
      }
    }
    writes.write(job, owner, job.withState(JobState.QUEUED, overWhy, now()));
  }

  /** What the move commits beyond what the job already committed. */
  private static java.math.BigDecimal extraCost(JobRow job, JobRow moved) {
    if (moved.estimatedUsd() == null) {
      return java.math.BigDecimal.ZERO;
    }
    var before = job.estimatedUsd() == null ? java.math.BigDecimal.ZERO : job.estimatedUsd();
    return moved.estimatedUsd().subtract(before);
  }
}
