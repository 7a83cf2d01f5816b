package io.trainyard.gateway.jobs;

import io.trainyard.auth.Principal;
import io.trainyard.cost.Budget;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.util.List;
import java.util.Map;

/**
 * The teams the gateway knows and what each may use. In dev mode every team a dev token names is
 * known and may use every backend; otherwise only configured teams exist, and {@code local} is
 * offered only to teams that list it.
 */
public final class TeamDirectory {
  // Replaced whole when Keycloak group attributes change (auth.keycloakAdmin); read per request.
  private volatile Map<String, TeamConfig> teams;
  private final boolean devMode;

  public TeamDirectory(Map<String, TeamConfig> teams, boolean devMode) {
    this.teams = Map.copyOf(teams);
    this.devMode = devMode;
  }

  /** Puts new team settings in force, e.g. with Keycloak group attributes laid over the config. */
  public void replaceTeams(Map<String, TeamConfig> teams) {
    this.teams = Map.copyOf(teams);
  }

  /** Every configured team and its settings now (dev mode's implicit teams are not listed). */
  public Map<String, TeamConfig> all() {
    return teams;
  }

  public boolean knows(String team) {
    return devMode || teams.containsKey(team);
  }

  public TeamConfig config(String team) {
    return teams.getOrDefault(team, TeamConfig.DEV);
  }

  /**
   * The team a job of this caller belongs to.
   *
   * @param requested {@code metadata.team}, or null
   * @throws ApiException when the caller names a team they are not in, belongs to several and named
   *     none, or belongs to none
   */
  public String resolve(Principal caller, String requested) {
    var mine = caller.teams();
    if (requested != null) {
      if (!mine.contains(requested)) {
        throw ApiException.field(
            ErrorCode.INVALID_SPEC,
            "metadata.team",
            "you are not a member of team "
                + requested
                + (mine.isEmpty() ? "" : "; yours: " + String.join(", ", mine)));
      }
      return requested;
    }
    if (mine.size() == 1) {
      return mine.iterator().next();
    }
    if (mine.isEmpty()) {
      throw new ApiException(
          ErrorCode.FORBIDDEN, "you belong to no team this gateway knows; ask a platform admin");
    }
    throw ApiException.field(
        ErrorCode.INVALID_SPEC,
        "metadata.team",
        "is required: you belong to several teams (" + String.join(", ", mine) + ")");
  }

  /** Why the team may not use this backend, or null when it may. */
  public String refusal(String team, BackendRegistry.Entry backend) {
    var id = backend.config().id();
    var allowed = config(team).backends();
    if (!allowed.isEmpty()) {
      return allowed.contains(id) ? null : "not enabled for team " + team;
    }
    if (backend.backend().kind().equals("local") && !devMode) {
      return "local runs commands on the gateway host; only teams that list it may use it";
    }
    return null;
  }

  /** The team's monthly budget, or null when it has none. */
  public Budget budget(String team) {
    var config = config(team);
    if (config.monthlyBudgetUsd() == null) {
      return null;
    }
    var policy =
        "refuse".equalsIgnoreCase(config.overBudget())
            ? Budget.OverBudget.REFUSE
            : Budget.OverBudget.QUEUE;
    return new Budget(config.monthlyBudgetUsd(), policy);
  }

  /**
   * What a backend needs to know of the team for a job: {@code namespace}, the team's namespace on
   * that backend (its config's {@code namespaces}, else the team's name).
   */
  public Map<String, String> settings(String team, String backendId) {
    var config = config(team);
    var namespace = config.namespaces().getOrDefault(backendId, team);
    // The priority cap goes with the job, so a cluster's priorityClasses map the capped priority.
    return config.maxPriority() == null
        ? Map.of("namespace", namespace)
        : Map.of("namespace", namespace, "maxPriority", String.valueOf(config.maxPriority()));
  }

  /** The team's residency regions; empty = any. */
  public List<String> regions(String team) {
    return config(team).regions();
  }
}
