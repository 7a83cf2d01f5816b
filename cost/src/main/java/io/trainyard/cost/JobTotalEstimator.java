package io.trainyard.cost;

import io.trainyard.cost.SpotInterruptionRates.Rate;
import io.trainyard.spi.Placement;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Estimates what a whole job costs on an offer: the hourly price (which already holds the cluster
 * fee share) over the job's hours plus the expected re-run time of spot interruptions, plus per-job
 * charges. Pure and thread-safe.
 *
 * <p>Interruptions are taken as a Poisson process. With a monthly rate {@code r} per instance (730
 * hours a month) and {@code n} instances, any of which stops the job, the job is interrupted at
 * {@code λ = n·r/730} per hour. Work lost to an interruption is redone, so the expected time to
 * finish {@code H} hours of work is
 *
 * <ul>
 *   <li>without a checkpoint (restart from the beginning): {@code (e^(λH) − 1)/λ};
 *   <li>with a checkpoint every {@code C} hours (resume from the last one): {@code H/C · (e^(λC) −
 *       1)/λ}.
 * </ul>
 *
 * For small {@code λ} the extra time is about {@code λH·H/2} and {@code λH·C/2}: each expected
 * interruption loses half the elapsed time, or half a checkpoint interval. Restart overhead
 * (provisioning, image pull) is not counted.
 */
public final class JobTotalEstimator {
  private static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);

  /** The checkpoint interval assumed when the spec names a checkpoint location. */
  public static final BigDecimal DEFAULT_CHECKPOINT_INTERVAL_HOURS = new BigDecimal("0.5");

  public static final JobTotalEstimator DEFAULTS =
      new JobTotalEstimator(SpotInterruptionRates.DEFAULTS, DEFAULT_CHECKPOINT_INTERVAL_HOURS);

  private final SpotInterruptionRates rates;
  private final BigDecimal checkpointIntervalHours;

  public JobTotalEstimator(SpotInterruptionRates rates, BigDecimal checkpointIntervalHours) {
    this.rates = Objects.requireNonNull(rates, "rates");
    this.checkpointIntervalHours = Objects.requireNonNull(checkpointIntervalHours);
    if (checkpointIntervalHours.signum() <= 0) {
      throw new IllegalArgumentException("the checkpoint interval must be positive");
    }
  }

  /**
   * @param hourlyUsd the offer's hourly price after discounts
   * @param hours the job's duration
   * @param checkpointed the spec names a checkpoint location, so an interrupted job resumes
   */
  public JobTotal estimate(
      String backendId,
      Placement placement,
      BigDecimal hourlyUsd,
      BigDecimal hours,
      boolean checkpointed) {
    var notes = new ArrayList<String>();
    var rerun = BigDecimal.ZERO;
    if (placement.spot()) {
      // Each line's instances at its own pool's rate: λ = Σ nᵢ·rᵢ / 730 per hour.
      var perMonth = BigDecimal.ZERO;
      var instances = 0;
      var sources = new LinkedHashSet<String>();
      Rate rate = null;
      for (var line : placement.lines()) {
        rate = rates.of(backendId, line.pool());
        perMonth = perMonth.add(rate.monthly().multiply(BigDecimal.valueOf(line.count())));
        instances += line.count();
        sources.add(percent(rate.monthly()) + " " + rate.source());
      }
      if (instances == 0) {
        rate = rates.of(backendId);
        perMonth = rate.monthly();
        instances = 1;
        sources.add(percent(rate.monthly()) + " " + rate.source());
      }
      var perHour = perMonth.divide(HOURS_PER_MONTH, MathContext.DECIMAL64);
      rerun = rerunHours(perHour.doubleValue(), hours, checkpointed);
      notes.add(
          "spot: "
              + (sources.size() == 1
                  ? percent(rate.monthly()) + " interruptions per instance-month (" + rate.source()
                  : "interruptions per instance-month by pool (" + String.join("; ", sources))
              + ") × "
              + instances
              + " instance(s) → +"
              + rerun.stripTrailingZeros().toPlainString()
              + " h expected re-run ("
              + (checkpointed
                  ? "resume from a checkpoint every "
                      + checkpointIntervalHours.stripTrailingZeros().toPlainString()
                      + " h"
                  : "no checkpoint: restart from the beginning")
              + ")");
    }
    var charge = PerJobCharges.of(placement.provider(), placement.service());
    notes.add(
        "per job: $" + charge.usd().stripTrailingZeros().toPlainString() + " — " + charge.fact());
    if (placement.clusterFeeUsdPerHour() != null) {
      notes.add(
          "includes the cluster fee share $"
              + placement.clusterFeeUsdPerHour().stripTrailingZeros().toPlainString()
              + "/h");
    }
    var billed = hours.add(rerun);
    var storage = storageUsd(placement, billed, notes);
    var perJob = charge.usd().add(storage);
    var usd = hourlyUsd.multiply(billed).add(perJob).setScale(4, RoundingMode.HALF_UP);
    notes.add(
        0,
        "total: $"
            + hourlyUsd.stripTrailingZeros().toPlainString()
            + "/h × "
            + billed.stripTrailingZeros().toPlainString()
            + " h"
            + (perJob.signum() > 0
                ? " + $" + perJob.stripTrailingZeros().toPlainString() + " per job"
                : "")
            + " = $"
            + usd.stripTrailingZeros().toPlainString());
    return new JobTotal(usd, hours, rerun, perJob, notes);
  }

  /**
   * The storage volume billed per instance for the run ({@code storageGbPerInstance}): GB ×
   * instances × billed hours ÷ 730 × the GB-month rate ({@link StorageRates}); zero without one.
   */
  private static BigDecimal storageUsd(
      Placement placement, BigDecimal billedHours, List<String> notes) {
    var gb = placement.storageGbPerInstance();
    if (gb == null || gb == 0) {
      return BigDecimal.ZERO;
    }
    var rate =
        StorageRates.of(placement.provider(), placement.service(), placement.region()).orElse(null);
    if (rate == null) {
      notes.add("storage: " + gb + " GB per instance, no GB-month rate known: not priced");
      return BigDecimal.ZERO;
    }
    var instances = placement.lines().stream().mapToInt(l -> l.count()).sum();
    var usd =
        BigDecimal.valueOf((long) gb * instances)
            .multiply(billedHours)
            .multiply(rate.usdPerGbMonth())
            .divide(HOURS_PER_MONTH, 4, RoundingMode.HALF_UP);
    notes.add(
        "storage: "
            + gb
            + " GB × "
            + instances
            + " instance(s) × "
            + billedHours.stripTrailingZeros().toPlainString()
            + " h ÷ 730 h × $"
            + rate.usdPerGbMonth().stripTrailingZeros().toPlainString()
            + "/GB-month = $"
            + usd.stripTrailingZeros().toPlainString()
            + " ("
            + rate.source()
            + ")");
    return usd;
  }

  private BigDecimal rerunHours(double lambda, BigDecimal hours, boolean checkpointed) {
    if (lambda <= 0) {
      return BigDecimal.ZERO;
    }
    var h = hours.doubleValue();
    double expected;
    if (checkpointed && checkpointIntervalHours.doubleValue() < h) {
      var c = checkpointIntervalHours.doubleValue();
      expected = h / c * Math.expm1(lambda * c) / lambda;
    } else {
      expected = Math.expm1(lambda * h) / lambda;
    }
    return BigDecimal.valueOf(Math.max(0, expected - h)).setScale(4, RoundingMode.HALF_UP);
  }

  private static String percent(BigDecimal fraction) {
    return fraction.movePointRight(2).stripTrailingZeros().toPlainString() + "%";
  }
}
