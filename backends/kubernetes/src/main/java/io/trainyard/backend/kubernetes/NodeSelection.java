package io.trainyard.backend.kubernetes;

import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A role's own choice of nodes — its pod template's {@code nodeSelector} and {@code
 * affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution} — held against a pool's
 * known node labels ({@link NodeLabels}), so a job is not placed on a pool whose nodes its pods can
 * never be scheduled on (the rendered pods carry both the job's selection and the pool's labels).
 *
 * <p>The rules are the scheduler's: every {@code nodeSelector} entry must equal the node's label;
 * of the affinity's {@code nodeSelectorTerms} one must match, and a term matches when all its
 * {@code matchExpressions} do ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist},
 * {@code Gt}, {@code Lt}; a missing label fails {@code In}, {@code Exists}, {@code Gt}, {@code Lt})
 * — https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/. A pool is ruled out
 * only when its known labels contradict the selection: a label the pool does not state may still be
 * on its nodes, so it is not held against it. {@code matchFields} is not judged. Pure.
 */
final class NodeSelection {
  private final String selectorField;
  private final Map<String, String> selector;
  private final String affinityField;
  private final List<List<Requirement>> terms;

  private record Requirement(String key, String operator, List<String> values) {
    /** False only when {@code labels} states the key and its value fails the requirement. */
    boolean possible(Map<String, String> labels) {
      var value = labels.get(key);
      if (value == null) {
        return true;
      }
      return switch (operator) {
        case "In" -> values.contains(value);
        case "NotIn" -> !values.contains(value);
        case "Exists" -> true;
        case "DoesNotExist" -> false;
        case "Gt" -> compare(value) == 1;
        case "Lt" -> compare(value) == -1;
        default -> true;
      };
    }

    /** The label's sign against the single integer value; 2 when either is not an integer. */
    private int compare(String value) {
      try {
        return new BigInteger(value).compareTo(new BigInteger(values.get(0)));
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        return 2;
      }
    }

    String describe() {
      return key + " " + operator + (values.isEmpty() ? "" : " " + values);
    }
  }

  private NodeSelection(
      String selectorField,
      Map<String, String> selector,
      String affinityField,
      List<List<Requirement>> terms) {
    this.selectorField = selectorField;
    this.selector = selector;
    this.affinityField = affinityField;
    this.terms = terms;
  }

  /** {@code role}'s selection as the spec states it (a role's override wins, key by key). */
  static NodeSelection of(JobSpec spec, RoleSpec role) {
    var template = role.kubernetes().podTemplate();
    var override = spec.roles().get(role.name());
    var own =
        override != null && override.kubernetes() != null
            ? override.kubernetes().podTemplate()
            : Map.<String, Object>of();
    var rolePath = "spec.roles." + role.name() + ".kubernetes.podTemplate.";
    var jobPath = "spec.kubernetes.podTemplate.";
    var selector = new LinkedHashMap<String, String>();
    if (template.get("nodeSelector") instanceof Map<?, ?> map) {
      map.forEach((k, v) -> selector.put(String.valueOf(k), String.valueOf(v)));
    }
    return new NodeSelection(
        (own.containsKey("nodeSelector") ? rolePath : jobPath) + "nodeSelector",
        selector,
        (own.containsKey("affinity") ? rolePath : jobPath)
            + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution",
        terms(template.get("affinity")));
  }

  boolean isEmpty() {
    return selector.isEmpty() && terms.isEmpty();
  }

  /**
   * Why nodes with {@code labels} can never run the role's pods, naming the field; null when they
   * may.
   */
  String conflict(Map<String, String> labels) {
    for (var entry : selector.entrySet()) {
      var value = labels.get(entry.getKey());
      if (value != null && !value.equals(entry.getValue())) {
        return selectorField
            + " "
            + entry.getKey()
            + "="
            + entry.getValue()
            + " (its nodes have "
            + value
            + ")";
      }
    }
    if (!terms.isEmpty()
        && terms.stream().noneMatch(t -> t.stream().allMatch(r -> r.possible(labels)))) {
      var failed = new ArrayList<String>();
      for (var term : terms) {
        term.stream()
            .filter(r -> !r.possible(labels))
            .findFirst()
            .ifPresent(
                r -> failed.add(r.describe() + " (its nodes have " + labels.get(r.key()) + ")"));
      }
      return affinityField + ": " + String.join("; ", failed);
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static List<List<Requirement>> terms(Object affinity) {
    var terms = new ArrayList<List<Requirement>>();
    if (!(affinity instanceof Map<?, ?> a)
        || !(a.get("nodeAffinity") instanceof Map<?, ?> node)
        || !(node.get("requiredDuringSchedulingIgnoredDuringExecution") instanceof Map<?, ?> req)
        || !(req.get("nodeSelectorTerms") instanceof List<?> list)) {
      return terms;
    }
    for (var t : list) {
      var requirements = new ArrayList<Requirement>();
      if (t instanceof Map<?, ?> term && term.get("matchExpressions") instanceof List<?> exprs) {
        for (var e : exprs) {
          if (e instanceof Map<?, ?> expr && expr.get("key") != null) {
            var values =
                expr.get("values") instanceof List<?> v
                    ? v.stream().map(String::valueOf).toList()
                    : List.<String>of();
            requirements.add(
                new Requirement(
                    String.valueOf(expr.get("key")), String.valueOf(expr.get("operator")), values));
          }
        }
      }
      terms.add(requirements);
    }
    return terms;
  }
}
