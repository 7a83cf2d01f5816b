package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * The estimated cost of a whole job on one offer.
 *
 * @param usd hourly price × billed hours + per-job charges
 * @param hours the job's own duration the total is for ({@code estimatedHours}, else {@code
 *     maxRuntime})
 * @param rerunHours expected extra hours from spot interruptions; zero on demand
 * @param perJobUsd charges per job rather than per hour (zero where none is known)
 * @param notes how the total was made, shown in the quote
 */
public record JobTotal(
    BigDecimal usd,
    BigDecimal hours,
    BigDecimal rerunHours,
    BigDecimal perJobUsd,
    List<String> notes) {
  public JobTotal {
    Objects.requireNonNull(usd, "usd");
    Objects.requireNonNull(hours, "hours");
    Objects.requireNonNull(rerunHours, "rerunHours");
    Objects.requireNonNull(perJobUsd, "perJobUsd");
    notes = List.copyOf(notes);
  }
}
