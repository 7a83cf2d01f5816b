package io.trainyard.cost;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.spi.Placement;
import io.trainyard.spi.Rejection;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One row of a routing decision: a priced placement (an offer), or a backend or placement that was
 * rejected, with the reason. The whole table is the decision's evidence.
 *
 * @param hourlyUsd after discounts; null when not priced
 * @param estimatedUsd what budgets and job rows count for the job: the whole-job {@code
 *     estimatedTotalUsd} when there is one, else hourly × estimated hours (the spec's, or the
 *     gateway's default); null when not priced
 * @param estimatedTotalUsd the whole job: hourly × (the spec's {@code estimatedHours}, else {@code
 *     maxRuntime}, plus expected spot re-run time) + per-job charges; null when not priced or the
 *     spec gives no duration. The notes say how it was made ({@link JobTotalEstimator})
 * @param estimated the price includes an estimate rather than a published price
 * @param rejected why this row cannot take the job; null for an offer
 * @param rejectedKind whether {@code rejected} could lift ({@code not-now}: the job may wait in the
 *     queue) or not ({@code never}); null for an offer
 * @param placement what the backend proposed; null when it proposed nothing
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Candidate(
    String backendId,
    String kind,
    String region,
    boolean spot,
    BigDecimal hourlyUsd,
    BigDecimal estimatedUsd,
    BigDecimal estimatedTotalUsd,
    boolean estimated,
    boolean chosen,
    String rejected,
    Rejection.Kind rejectedKind,
    List<String> notes,
    Placement placement) {
  public Candidate {
    Objects.requireNonNull(backendId, "backendId");
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isOffer() {
    return rejected == null;
  }

  Candidate reject(String reason) {
    return reject(reason, Rejection.Kind.NEVER);
  }

  Candidate reject(String reason, Rejection.Kind rejectionKind) {
    return with(false, reason, rejectionKind);
  }

  /**
   * This offer with its whole-job total, which is also its {@code estimatedUsd} (budgets and job
   * rows count the whole job: spot re-runs and per-job charges included); the total's notes follow
   * the offer's own.
   */
  Candidate withTotal(JobTotal total) {
    var all = new ArrayList<>(notes);
    all.addAll(total.notes());
    return new Candidate(
        backendId,
        kind,
        region,
        spot,
        hourlyUsd,
        total.usd(),
        total.usd(),
        estimated,
        chosen,
        rejected,
        rejectedKind,
        all,
        placement);
  }

  Candidate choose() {
    return with(true, null, null);
  }

  private Candidate with(boolean isChosen, String rejection, Rejection.Kind rejectionKind) {
    return new Candidate(
        backendId,
        kind,
        region,
        spot,
        hourlyUsd,
        estimatedUsd,
        estimatedTotalUsd,
        estimated,
        isChosen,
        rejection,
        rejectionKind,
        notes,
        placement);
  }
}
