package io.trainyard.cost;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * What one job costs a team, as the budget sees it.
 *
 * @param live the job has not ended (its commitment counts)
 * @param hourlyUsd the chosen offer's price; null when unpriced (counts as 0)
 * @param commitmentUsd hourly × min(estimated hours, maxRuntime): what a live job may still cost
 * @param startedAt null before it ran
 * @param endedAt null while live
 */
public record JobCharge(
    boolean live,
    BigDecimal hourlyUsd,
    BigDecimal commitmentUsd,
    Instant startedAt,
    Instant endedAt) {}
