package io.trainyard.spi.spec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of {@link PodSpecFields} that read several fields of one object together, each one the
 * API server makes: a toleration's operator, value and effect; a selector requirement's operator
 * and values; a container's requests and limits; a volume's one source; names used twice in a list.
 * A field of the wrong type was already reported by the table and is skipped here. Stateless.
 */
final class PodSpecRules {
  private PodSpecRules() {}

  /** Entries of a list whose {@code key} (a string) repeats another's. */
  static PodField.ListRule unique(String key) {
    return (at, list, errors) -> {
      var seen = new HashSet<String>();
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) instanceof Map<?, ?> m
            && m.get(key) instanceof String value
            && !seen.add(value)) {
          errors.add(new FieldError(at + "[" + i + "]." + key, "'" + value + "' is used twice"));
        }
      }
    };
  }

  /** Topology spread constraints: one per topology key and whenUnsatisfiable. */
  static void uniqueSpread(String at, List<?> list, List<FieldError> errors) {
    var seen = new HashSet<String>();
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) instanceof Map<?, ?> m
          && m.get("topologyKey") instanceof String key
          && m.get("whenUnsatisfiable") instanceof String when
          && !seen.add(key + "\n" + when)) {
        errors.add(
            new FieldError(
                at + "[" + i + "]",
                "repeats topologyKey " + key + " with whenUnsatisfiable " + when));
      }
    }
  }

  static void toleration(String at, Map<?, ?> t, List<FieldError> errors) {
    var key = text(t, "key", "");
    var operator = text(t, "operator", "");
    var value = text(t, "value", "");
    if (key == null || operator == null || value == null) {
      return;
    }
    if (key.isEmpty() && !operator.equals("Exists")) {
      errors.add(
          new FieldError(
              at + ".operator", "must be Exists when key is empty (to tolerate every taint)"));
    }
    if (t.get("tolerationSeconds") != null && !"NoExecute".equals(t.get("effect"))) {
      errors.add(
          PodField.wrong(
              at + ".effect", "NoExecute when tolerationSeconds is set", t.get("effect")));
    }
    if (operator.equals("Exists") && !value.isEmpty()) {
      errors.add(PodField.wrong(at + ".value", "empty when operator is Exists", value));
    } else if ((operator.isEmpty() || operator.equals("Equal"))
        && !PodFormats.isLabelValue(value)) {
      errors.add(PodField.wrong(at + ".value", PodSpecFields.LABEL_VALUE_TEXT, value));
    }
  }

  /** A node selector's matchExpressions entry. */
  static void nodeRequirement(String at, Map<?, ?> r, List<FieldError> errors) {
    requirement(at, r, errors, true);
  }

  /** A label selector's matchExpressions entry: no Gt or Lt. */
  static void labelRequirement(String at, Map<?, ?> r, List<FieldError> errors) {
    requirement(at, r, errors, false);
  }

  private static void requirement(
      String at, Map<?, ?> r, List<FieldError> errors, boolean numeric) {
    if (!(r.get("operator") instanceof String operator)) {
      return;
    }
    var values = r.get("values") instanceof List<?> l ? l : List.of();
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errors.add(
              new FieldError(
                  at + ".values", "must hold at least one value when operator is " + operator));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errors.add(new FieldError(at + ".values", "must be empty when operator is " + operator));
        }
      }
      case "Gt", "Lt" -> {
        if (numeric && (values.size() != 1 || !isLong(values.get(0)))) {
          errors.add(
              new FieldError(
                  at + ".values",
                  "must hold exactly one whole number (as a string) when operator is " + operator));
        }
      }
      default -> {} // reported by the table
    }
  }

  /** A node selector's matchFields entry: metadata.name, In or NotIn, one value. */
  static void fieldRequirement(String at, Map<?, ?> r, List<FieldError> errors) {
    if (r.get("values") instanceof List<?> values && values.size() != 1) {
      errors.add(new FieldError(at + ".values", "must hold exactly one node name"));
    }
  }

  static void spreadConstraint(String at, Map<?, ?> c, List<FieldError> errors) {
    if (c.get("minDomains") != null && !"DoNotSchedule".equals(c.get("whenUnsatisfiable"))) {
      errors.add(
          new FieldError(
              at + ".minDomains", "applies only when whenUnsatisfiable is DoNotSchedule"));
    }
  }

  /** A seccomp or AppArmor profile: a localhostProfile exactly when its type is Localhost. */
  static void profile(String at, Map<?, ?> p, List<FieldError> errors) {
    var localhost = "Localhost".equals(p.get("type"));
    var profile = p.get("localhostProfile");
    if (localhost && (profile == null || "".equals(profile))) {
      errors.add(new FieldError(at + ".localhostProfile", "is required when type is Localhost"));
    } else if (!localhost && profile != null && p.get("type") instanceof String) {
      errors.add(
          new FieldError(at + ".localhostProfile", "may be set only when type is Localhost"));
    }
  }

  /** A volume names exactly one of {@code sources}. */
  static PodField.Rule oneSource(Set<String> sources) {
    return (at, v, errors) -> {
      var named = new ArrayList<String>();
      v.forEach(
          (k, value) -> {
            if (value != null && sources.contains(String.valueOf(k))) {
              named.add(String.valueOf(k));
            }
          });
      var others = v.keySet().stream().anyMatch(k -> !"name".equals(k) && !named.contains(k));
      if (named.isEmpty() && !others) {
        errors.add(
            new FieldError(
                at,
                "must name its source: emptyDir, persistentVolumeClaim, configMap, secret, ..."));
      } else if (named.size() > 1) {
        errors.add(
            new FieldError(
                at,
                "names "
                    + named.size()
                    + " sources ("
                    + String.join(", ", named)
                    + "); a volume has exactly one"));
      }
    };
  }

  static void dnsConfig(String at, Map<?, ?> c, List<FieldError> errors) {
    if (c.get("nameservers") instanceof List<?> l && l.size() > 3) {
      errors.add(new FieldError(at + ".nameservers", "must hold at most 3 nameservers"));
    }
    if (c.get("searches") instanceof List<?> l && l.size() > 32) {
      errors.add(new FieldError(at + ".searches", "must hold at most 32 search domains"));
    }
  }

  static void resourceClaim(String at, Map<?, ?> c, List<FieldError> errors) {
    if (c.get("resourceClaimName") != null && c.get("resourceClaimTemplateName") != null) {
      errors.add(
          new FieldError(at, "must name resourceClaimName or resourceClaimTemplateName, not both"));
    }
  }

  /**
   * A container's (or the pod's) resources: extended resources in whole units; a request at most
   * its limit, and equal to it for huge pages and extended resources, which also need a limit.
   */
  static void resources(String at, Map<?, ?> r, List<FieldError> errors) {
    var limits = quantities(r.get("limits"));
    var requests = quantities(r.get("requests"));
    var written = r.get("limits") instanceof Map<?, ?> m ? m : Map.of();
    limits.forEach(
        (name, q) -> whole(at + ".limits." + name, name, q, raw(r, "limits", name), errors));
    requests.forEach(
        (name, q) -> {
          var path = at + ".requests." + name;
          var request = raw(r, "requests", name);
          whole(path, name, q, request, errors);
          var limit = limits.get(name);
          var strict = PodFormats.isOvercommitForbidden(name);
          if (limit == null) {
            if (strict && !written.containsKey(name)) {
              errors.add(
                  new FieldError(
                      path,
                      "needs the same value in limits: "
                          + name
                          + " cannot be requested without a limit"));
            }
          } else if (strict && q.compareTo(limit) != 0) {
            errors.add(
                PodField.wrong(
                    path, "equal to its limit (" + name + " cannot be overcommitted)", request));
          } else if (q.compareTo(limit) > 0) {
            errors.add(
                PodField.wrong(
                    path,
                    "at most its limit of " + PodField.shown(raw(r, "limits", name)),
                    request));
          }
        });
  }

  private static void whole(
      String at, String name, BigDecimal q, Object written, List<FieldError> errors) {
    if (PodFormats.isWholeResource(name) && q.stripTrailingZeros().scale() > 0) {
      errors.add(PodField.wrong(at, "a whole number (" + name + " is counted in units)", written));
    }
  }

  private static Object raw(Map<?, ?> r, String side, String name) {
    return ((Map<?, ?>) r.get(side)).get(name);
  }

  /** The parsable quantities of a resource list; the rest were reported by the table. */
  private static Map<String, BigDecimal> quantities(Object list) {
    var result = new java.util.LinkedHashMap<String, BigDecimal>();
    if (list instanceof Map<?, ?> m) {
      m.forEach(
          (k, v) ->
              KubernetesQuantities.value(v)
                  .filter(q -> q.signum() >= 0)
                  .ifPresent(q -> result.put(String.valueOf(k), q)));
    }
    return result;
  }

  private static boolean isLong(Object value) {
    if (!(value instanceof String s) || s.length() > 20) {
      return false;
    }
    try {
      Long.parseLong(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** A string field's value, {@code absent} when missing, null when of another type. */
  private static String text(Map<?, ?> m, String key, String absent) {
    var v = m.get(key);
    return v == null ? absent : v instanceof String s ? s : null;
  }
}
