package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * How often spot capacity is taken back, per node pool or per backend, as a fraction of instances
 * per month: keys are {@code backend/pool} (a Kubernetes node pool) or {@code backend} (all its
 * spot capacity). Immutable, thread-safe.
 *
 * <p>A backend without a configured rate gets {@link #DEFAULT_BAND}. AWS publishes bands per
 * instance type and region in the Spot Instance Advisor; Google (Spot VMs) and Azure (Spot VMs)
 * publish no per-type figures, so the same default applies to them until the operator sets one.
 */
public final class SpotInterruptionRates {
  /** The Advisor's second band (5-10%/month), used at its upper bound: a cautious default. */
  public static final InterruptionBand DEFAULT_BAND = InterruptionBand.FROM_5_TO_10;

  /** Every backend at the default band. */
  public static final SpotInterruptionRates DEFAULTS = new SpotInterruptionRates(Map.of());

  private final Map<String, BigDecimal> monthlyByBackend;

  /**
   * @param monthlyByBackend backend id → interruptions per instance per month (0..1)
   */
  public SpotInterruptionRates(Map<String, BigDecimal> monthlyByBackend) {
    this.monthlyByBackend = Map.copyOf(Objects.requireNonNull(monthlyByBackend));
    this.monthlyByBackend.forEach(
        (backend, rate) -> {
          if (rate.signum() < 0 || rate.compareTo(BigDecimal.ONE) > 0) {
            throw new IllegalArgumentException(
                "spot interruption rate of " + backend + " must be between 0 and 1");
          }
        });
  }

  /**
   * Rates from configuration values: a band label ({@code "<5%"}, {@code "10-15%"}) or a fraction
   * per month ({@code "0.07"}).
   */
  public static SpotInterruptionRates parse(Map<String, String> byBackend) {
    var rates = new java.util.HashMap<String, BigDecimal>();
    byBackend.forEach(
        (backend, value) ->
            rates.put(
                backend,
                value.contains("%")
                    ? InterruptionBand.parse(value).monthlyRate()
                    : new BigDecimal(value.trim())));
    return new SpotInterruptionRates(rates);
  }

  /** The rate for a backend and whether it was configured (false: the default band). */
  public Rate of(String backendId) {
    return of(backendId, null);
  }

  /**
   * The rate of {@code pool} on {@code backendId} ({@code backend/pool}), else the backend's, else
   * the default band.
   */
  public Rate of(String backendId, String pool) {
    var key = pool == null ? null : backendId + "/" + pool;
    if (key != null && monthlyByBackend.containsKey(key)) {
      return new Rate(monthlyByBackend.get(key), "configured for " + key);
    }
    var configured = monthlyByBackend.get(backendId);
    return configured != null
        ? new Rate(configured, "configured for " + backendId)
        : new Rate(
            DEFAULT_BAND.monthlyRate(),
            "default: the upper bound of the AWS Spot Instance Advisor band "
                + DEFAULT_BAND.label());
  }

  /** A monthly rate and where it comes from. */
  public record Rate(BigDecimal monthly, String source) {}
}
