package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;

/**
 * {@code GET /v1/teams/{team}/spend}: a team's spend in one UTC month, as budgets count it.
 *
 * @param budgetUsd null when the team has no budget
 * @param remainingUsd budget − total; null without a budget
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TeamSpend(
    String team,
    String month,
    BigDecimal accruedUsd,
    BigDecimal committedUsd,
    BigDecimal totalUsd,
    BigDecimal budgetUsd,
    String overBudget,
    BigDecimal remainingUsd) {}
