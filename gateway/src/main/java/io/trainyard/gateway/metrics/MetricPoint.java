package io.trainyard.gateway.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Objects;

/**
 * One value of one model metric of a job, e.g. {@code loss = 0.42} at step 3 of epoch 1.
 *
 * @param step the training step, or null
 * @param epoch the epoch, or null (at least one of step and epoch is set)
 * @param time when the job measured it (posted), or read it from the logs
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MetricPoint(String name, double value, Long step, Long epoch, Instant time) {
  public MetricPoint {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(time, "time");
  }

  /**
   * The point's identity within its job and name: the same step and epoch posted twice, or read
   * from the logs while followed and again at archive, is stored once.
   */
  public String key() {
    return (step == null ? "-" : step.toString()) + "/" + (epoch == null ? "-" : epoch.toString());
  }
}
