package io.trainyard.gateway.config;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * One team: where its jobs go and what it may spend.
 *
 * @param namespaces backend id → Kubernetes namespace of this team's jobs
 * @param backends backend ids the team may use; empty = every configured backend but {@code local}
 * @param monthlyBudgetUsd per UTC calendar month; null = no budget
 * @param overBudget what happens to a job over budget: {@code queue} or {@code refuse}
 * @param regions residency: the team's jobs run only in these; empty = any
 */
public record TeamConfig(
    Map<String, String> namespaces,
    List<String> backends,
    BigDecimal monthlyBudgetUsd,
    String overBudget,
    List<String> regions) {
  public TeamConfig {
    namespaces = namespaces == null ? Map.of() : Map.copyOf(namespaces);
    backends = backends == null ? List.of() : List.copyOf(backends);
    regions = regions == null ? List.of() : List.copyOf(regions);
  }

  public static final TeamConfig DEV = new TeamConfig(null, null, null, null, null);
}
