package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trainyard.cost.JobTotalEstimator;
import io.trainyard.cost.SpotInterruptionRates;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the router estimates the cost of a whole job ({@code routing:} in the configuration).
 *
 * <p>{@code spotInterruption} maps a node pool ({@code backend/pool}) or a backend id to how often
 * its spot capacity is taken back (a pool's entry wins over its backend's): an AWS Spot Instance
 * Advisor band ({@code "<5%"}, {@code "5-10%"}, {@code "10-15%"}, {@code "15-20%"}, {@code ">20%"},
 * taken at its upper bound, {@code >20%} as 25%) or a fraction per instance-month ({@code "0.07"}).
 * Backends not listed get the 5-10% band. A value that is neither fails at startup.
 */
public class RoutingConfig {
  private Map<String, String> spotInterruption = Map.of();
  private SpotInterruptionRates rates = SpotInterruptionRates.DEFAULTS;

  @NotNull
  @DecimalMin(value = "0", inclusive = false)
  private BigDecimal checkpointIntervalHours = JobTotalEstimator.DEFAULT_CHECKPOINT_INTERVAL_HOURS;

  @JsonProperty
  public Map<String, String> getSpotInterruption() {
    return spotInterruption;
  }

  /** Parsed here, so a bad band fails when the configuration is read and names the key. */
  @JsonProperty
  public void setSpotInterruption(Map<String, String> spotInterruption) {
    var copy = new LinkedHashMap<>(spotInterruption == null ? Map.of() : spotInterruption);
    copy.forEach(
        (backend, value) -> {
          try {
            SpotInterruptionRates.parse(Map.of(backend, value));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "routing.spotInterruption."
                    + backend
                    + ": '"
                    + value
                    + "' is neither an Advisor"
                    + " band (<5%, 5-10%, 10-15%, 15-20%, >20%) nor a fraction per month (0..1)",
                e);
          }
        });
    this.rates = SpotInterruptionRates.parse(copy);
    this.spotInterruption = Map.copyOf(copy);
  }

  /** The checkpoint interval assumed for a spot job that names a checkpoint location. */
  @JsonProperty
  public BigDecimal getCheckpointIntervalHours() {
    return checkpointIntervalHours;
  }

  @JsonProperty
  public void setCheckpointIntervalHours(BigDecimal checkpointIntervalHours) {
    this.checkpointIntervalHours = checkpointIntervalHours;
  }

  public JobTotalEstimator estimator() {
    return new JobTotalEstimator(rates, checkpointIntervalHours);
  }
}
