package io.trainyard.gateway.jobs;

import io.trainyard.cost.BackendQuote;
import io.trainyard.spi.Placement;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.WaitingAhead;
import java.util.Map;

/**
 * Adds the gateway's own knowledge to what a backend reports waits ahead of a new job: the jobs
 * this gateway has placed on the backend that have not started (PENDING, SUBMITTED). Where the
 * backend reports a figure (a cluster's pending pods, which already include the pods of our
 * submitted jobs) the larger of the two stands, so our jobs are not counted twice; where it reports
 * none or says it cannot know (a managed platform's API tells no queue), ours stands alone, and the
 * source says it counts only this gateway's jobs. Pure.
 */
final class GatewayQueueAhead {
  static final String SOURCE =
      "this gateway's jobs placed there and not started (PENDING, SUBMITTED)";

  private GatewayQueueAhead() {}

  static BackendQuote add(BackendQuote quote, Map<String, Long> waitingByBackend) {
    if (quote.proposals() == null || quote.proposals().placements().isEmpty()) {
      return quote;
    }
    var ours = waitingByBackend.getOrDefault(quote.backendId(), 0L).intValue();
    var placements =
        quote.proposals().placements().stream()
            .map(p -> p.withWaitingAhead(combine(p, ours)))
            .toList();
    return new BackendQuote(
        quote.backendId(),
        quote.kind(),
        quote.region(),
        quote.hipaaEligible(),
        quote.discountPct(),
        new Proposals(placements, quote.proposals().rejections()),
        quote.unavailable(),
        quote.unavailableKind());
  }

  static WaitingAhead combine(Placement placement, int ours) {
    var reported = placement.waitingAhead();
    var mine = ours + " job(s) of " + SOURCE;
    if (reported == null || !reported.known()) {
      return WaitingAhead.of(
          ours,
          "jobs",
          mine
              + (reported == null
                  ? "; the backend reports no queue"
                  : "; the backend's own figure is unknown: " + reported.source()));
    }
    return reported.count() >= ours
        ? WaitingAhead.of(reported.count(), reported.unit(), reported.source() + "; " + mine)
        : WaitingAhead.of(ours, "jobs", mine + "; the backend reports " + reported.count());
  }
}
