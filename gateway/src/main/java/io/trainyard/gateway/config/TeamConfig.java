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
 * @param maxConcurrentJobs jobs of the team placed on a backend at once (submitted, running); null
 *     = no limit; more wait in the queue
 * @param maxGpus GPUs the team's placed jobs may hold at once; null = no limit
 * @param maxPriority the highest {@code spec.priority} the team's jobs get (higher is capped); null
 *     = {@value io.trainyard.spi.spec.JobSpecValidator#MAX_PRIORITY}
 * @param weight the team's share of the queue against other teams' (weighted fair share); null = 1
 */
public record TeamConfig(
    Map<String, String> namespaces,
    List<String> backends,
    BigDecimal monthlyBudgetUsd,
    String overBudget,
    List<String> regions,
    Integer maxConcurrentJobs,
    Integer maxGpus,
    Integer maxPriority,
    Integer weight) {
  public TeamConfig {
    namespaces = namespaces == null ? Map.of() : Map.copyOf(namespaces);
    backends = backends == null ? List.of() : List.copyOf(backends);
    regions = regions == null ? List.of() : List.copyOf(regions);
  }

  /** A team without quotas, priority cap or weight. */
  public TeamConfig(
      Map<String, String> namespaces,
      List<String> backends,
      BigDecimal monthlyBudgetUsd,
      String overBudget,
      List<String> regions) {
    this(namespaces, backends, monthlyBudgetUsd, overBudget, regions, null, null, null, null);
  }

  public static final TeamConfig DEV = new TeamConfig(null, null, null, null, null);
}
