package io.trainyard.cost;

import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What the router knows of one backend for one job: its identity and compliance facts, and either
 * its proposals or why it cannot be asked now.
 *
 * @param unavailable why the backend is out of the running before it was asked (unhealthy, not
 *     allowed for the team); null when it was asked
 * @param unavailableKind whether {@code unavailable} could lift (unhealthy: {@code NOT_NOW}) or not
 *     (not allowed for the team: {@code NEVER}); null when it was asked
 */
public record BackendQuote(
    String backendId,
    String kind,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    Proposals proposals,
    String unavailable,
    Rejection.Kind unavailableKind) {
  public BackendQuote {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(kind, "kind");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    if ((proposals == null) == (unavailable == null)) {
      throw new IllegalArgumentException("either proposals or a reason it is unavailable");
    }
    if (unavailable != null && unavailableKind == null) {
      unavailableKind = Rejection.Kind.NEVER;
    }
  }

  /** A backend that was asked. */
  public BackendQuote(
      String backendId,
      String kind,
      String region,
      boolean hipaaEligible,
      BigDecimal discountPct,
      Proposals proposals,
      String unavailable) {
    this(backendId, kind, region, hipaaEligible, discountPct, proposals, unavailable, null);
  }

  /** Out of the running for good (e.g. not allowed for the team). */
  public static BackendQuote unavailable(
      String backendId, String kind, String region, String reason) {
    return unavailable(backendId, kind, region, reason, Rejection.Kind.NEVER);
  }

  /** Out of the running, for good or for now (e.g. unhealthy). */
  public static BackendQuote unavailable(
      String backendId, String kind, String region, String reason, Rejection.Kind why) {
    return new BackendQuote(backendId, kind, region, false, null, null, reason, why);
  }
}
