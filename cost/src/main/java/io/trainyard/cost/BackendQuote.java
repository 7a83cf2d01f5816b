package io.trainyard.cost;

import io.trainyard.spi.Proposals;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * What the router knows of one backend for one job: its identity and compliance facts, and either
 * its proposals or why it cannot be asked now.
 *
 * @param unavailable why the backend is out of the running before it was asked (unhealthy, not
 *     allowed for the team); null when it was asked
 */
public record BackendQuote(
    String backendId,
    String kind,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    Proposals proposals,
    String unavailable) {
  public BackendQuote {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(kind, "kind");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    if ((proposals == null) == (unavailable == null)) {
      throw new IllegalArgumentException("either proposals or a reason it is unavailable");
    }
  }

  public static BackendQuote unavailable(
      String backendId, String kind, String region, String reason) {
    return new BackendQuote(backendId, kind, region, false, null, null, reason);
  }
}
