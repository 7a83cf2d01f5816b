package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The frequency-of-interruption bands of the AWS Spot Instance Advisor
 * (https://aws.amazon.com/ec2/spot/instance-advisor/): the share of an instance type's spot
 * capacity in a region that was interrupted over the last month. The router uses a band's upper
 * bound (the pessimistic end; {@code >20%} counts as 25%) as the monthly rate.
 */
public enum InterruptionBand {
  UNDER_5("<5%", "0.05"),
  FROM_5_TO_10("5-10%", "0.10"),
  FROM_10_TO_15("10-15%", "0.15"),
  FROM_15_TO_20("15-20%", "0.20"),
  OVER_20(">20%", "0.25");

  private final String label;
  private final BigDecimal monthlyRate;

  InterruptionBand(String label, String monthlyRate) {
    this.label = label;
    this.monthlyRate = new BigDecimal(monthlyRate);
  }

  public String label() {
    return label;
  }

  /** The band's upper bound as a fraction per month. */
  public BigDecimal monthlyRate() {
    return monthlyRate;
  }

  /**
   * A band by its Advisor label ({@code <5%}, {@code 5-10%}, {@code 10-15%}, {@code 15-20%}, {@code
   * >20%}; an en dash is accepted too).
   */
  public static InterruptionBand parse(String label) {
    var normal = label.trim().replace('\u2013', '-').replace(" ", "");
    return Arrays.stream(values())
        .filter(b -> b.label.equals(normal))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown interruption band '"
                        + label
                        + "'; one of <5%, 5-10%, 10-15%, 15-20%, >20%"));
  }
}
