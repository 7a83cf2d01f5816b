package io.trainyard.gateway.config;

import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotNull;

/**
 * How slowly a request body may arrive ({@code requestBodies:}): after {@code grace} from its first
 * read it must have averaged {@code minRate} per second, or it is refused with 408. A zero rate
 * turns the check off.
 */
public class RequestBodyConfig {
  @NotNull private DataSize minRate = DataSize.kibibytes(1);
  @NotNull private Duration grace = Duration.seconds(10);

  /** The slowest average a body may arrive at once its grace is over (per second). */
  public DataSize getMinRate() {
    return minRate;
  }

  public void setMinRate(DataSize minRate) {
    this.minRate = minRate;
  }

  /** How long any body may take, however slowly it comes. */
  public Duration getGrace() {
    return grace;
  }

  public void setGrace(Duration grace) {
    this.grace = grace;
  }
}
