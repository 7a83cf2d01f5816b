package io.trainyard.gateway.idp;

import io.trainyard.gateway.config.TeamConfig;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A team's settings as Keycloak group attributes, and back. Keycloak attributes are string lists,
 * so each setting is one attribute:
 *
 * <pre>
 * trainyard.team              true                       marks the group as a team
 * trainyard.backends          eks-prod-use1, local       one value per backend id
 * trainyard.regions           us-east-1                  one value per region
 * trainyard.namespaces        eks-prod-use1=nlp-jobs     one value per backend: backend=namespace
 * trainyard.monthlyBudgetUsd  20000                      one value
 * trainyard.overBudget        queue                      one value: queue or refuse
 * </pre>
 *
 * An attribute that is present replaces the configured setting as a whole; an absent one leaves it.
 * A value that cannot be read is reported and ignored, so one typo in Keycloak cannot take a team's
 * other settings down with it.
 */
public final class TeamAttributes {
  public static final String MARKER = "trainyard.team";
  public static final String BACKENDS = "trainyard.backends";
  public static final String REGIONS = "trainyard.regions";
  public static final String NAMESPACES = "trainyard.namespaces";
  public static final String BUDGET = "trainyard.monthlyBudgetUsd";
  public static final String OVER_BUDGET = "trainyard.overBudget";

  private static final Set<String> OVER_BUDGET_VALUES = Set.of("queue", "refuse");

  private TeamAttributes() {}

  /** Whether a group's attributes mark it as a team. */
  public static boolean isTeam(Map<String, List<String>> attributes) {
    return attributes != null && attributes.getOrDefault(MARKER, List.of()).contains("true");
  }

  /** The attributes that describe a configured team, marker included. */
  public static Map<String, List<String>> of(TeamConfig team) {
    var attributes = new LinkedHashMap<String, List<String>>();
    attributes.put(MARKER, List.of("true"));
    if (!team.backends().isEmpty()) {
      attributes.put(BACKENDS, team.backends());
    }
    if (!team.regions().isEmpty()) {
      attributes.put(REGIONS, team.regions());
    }
    if (!team.namespaces().isEmpty()) {
      var pairs = new ArrayList<String>();
      new TreeMap<>(team.namespaces()).forEach((backend, ns) -> pairs.add(backend + "=" + ns));
      attributes.put(NAMESPACES, pairs);
    }
    if (team.monthlyBudgetUsd() != null) {
      attributes.put(BUDGET, List.of(team.monthlyBudgetUsd().toPlainString()));
    }
    if (team.overBudget() != null) {
      attributes.put(OVER_BUDGET, List.of(team.overBudget()));
    }
    return attributes;
  }

  /**
   * The team's settings with the group's attributes laid over them.
   *
   * @param base the configured settings; {@code TeamConfig.DEV}-like empty settings for a team that
   *     exists only in Keycloak
   * @param problems receives one line per attribute that could not be read
   */
  public static TeamConfig merge(
      String team, TeamConfig base, Map<String, List<String>> attributes, List<String> problems) {
    if (attributes == null) {
      return base;
    }
    var backends = values(attributes, BACKENDS, base.backends());
    var regions = values(attributes, REGIONS, base.regions());
    var namespaces = base.namespaces();
    if (attributes.containsKey(NAMESPACES)) {
      namespaces = namespaces(team, attributes.get(NAMESPACES), base.namespaces(), problems);
    }
    var budget = base.monthlyBudgetUsd();
    var budgetValue = single(attributes, BUDGET);
    if (budgetValue != null) {
      try {
        budget = new BigDecimal(budgetValue);
        if (budget.signum() < 0) {
          throw new NumberFormatException("negative");
        }
      } catch (NumberFormatException e) {
        problems.add(team + ": " + BUDGET + " '" + budgetValue + "' is not an amount in USD");
        budget = base.monthlyBudgetUsd();
      }
    }
    var overBudget = base.overBudget();
    var overValue = single(attributes, OVER_BUDGET);
    if (overValue != null) {
      if (OVER_BUDGET_VALUES.contains(overValue)) {
        overBudget = overValue;
      } else {
        problems.add(team + ": " + OVER_BUDGET + " '" + overValue + "' is not queue or refuse");
      }
    }
    return new TeamConfig(namespaces, backends, budget, overBudget, regions);
  }

  private static List<String> values(
      Map<String, List<String>> attributes, String name, List<String> otherwise) {
    var values = attributes.get(name);
    if (values == null) {
      return otherwise;
    }
    return values.stream().map(String::strip).filter(v -> !v.isEmpty()).toList();
  }

  private static String single(Map<String, List<String>> attributes, String name) {
    var values = attributes.get(name);
    return values == null || values.isEmpty() ? null : values.get(0).strip();
  }

  private static Map<String, String> namespaces(
      String team, List<String> pairs, Map<String, String> otherwise, List<String> problems) {
    var namespaces = new LinkedHashMap<String, String>();
    for (var pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || eq == pair.length() - 1) {
        problems.add(team + ": " + NAMESPACES + " '" + pair + "' is not backend=namespace");
        return otherwise;
      }
      namespaces.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
    }
    return namespaces;
  }
}
