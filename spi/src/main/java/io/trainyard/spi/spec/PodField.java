package io.trainyard.spi.spec;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What one field of a Kubernetes pod spec holds, as {@code k8s.io/api/core/v1} declares it, and the
 * values the API server accepts there: the vocabulary of {@link PodSpecFields}' table. A check
 * appends a {@link FieldError} naming the field's path, what was expected and what was found; it
 * never throws, visits each value once and reads no further than the table goes, so the cost is
 * linear in the (already size-limited) tree. Null values are absent values, as Kubernetes decodes
 * them. Immutable and thread-safe.
 */
sealed interface PodField {
  /** Appends what is wrong with {@code value} (not null), found at {@code at}. */
  void check(String at, Object value, List<FieldError> errors);

  /** A check of an object's fields together (which must agree), after each field's own. */
  @FunctionalInterface
  interface Rule {
    void check(String at, Map<?, ?> object, List<FieldError> errors);
  }

  /** A check of a whole list (names used twice). */
  @FunctionalInterface
  interface ListRule {
    void check(String at, List<?> list, List<FieldError> errors);
  }

  /** A string; {@code format} null for any string. */
  record Text(Predicate<String> format, String expected) implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      if (!(value instanceof String s)) {
        errors.add(wrong(at, "a string" + quoteHint(value), value));
      } else if (format != null && !format.test(s)) {
        errors.add(wrong(at, expected, value));
      }
    }

    private static String quoteHint(Object value) {
      return value instanceof Number || value instanceof Boolean ? " (quote it)" : "";
    }
  }

  /** A whole number from {@code min} to {@code max}: an int32 or int64 and the range enforced. */
  record Whole(long min, long max, String expected) implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      var n = whole(value);
      if (n == null
          || n.compareTo(BigInteger.valueOf(min)) < 0
          || n.compareTo(BigInteger.valueOf(max)) > 0) {
        errors.add(wrong(at, expected, value));
      }
    }
  }

  /** True or false, not the string. */
  record Flag() implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      if (!(value instanceof Boolean)) {
        errors.add(wrong(at, "true or false", value));
      }
    }
  }

  /** A quantity ({@code resource.Quantity}), never negative. */
  record Quantity() implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      var q = KubernetesQuantities.value(value);
      if (q.isEmpty()) {
        errors.add(wrong(at, "a Kubernetes quantity (e.g. 1Gi)", value));
      } else if (q.get().signum() < 0) {
        errors.add(wrong(at, "a Kubernetes quantity of 0 or more", value));
      }
    }
  }

  /** A port given as its number or its name ({@code intstr.IntOrString}). */
  record PortOrName() implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      if (value instanceof String s) {
        if (!PodFormats.isPortName(s)) {
          errors.add(wrong(at, "a port number from 1 to 65535 or a port name", value));
        }
      } else {
        PodSpecFields.PORT.check(at, value, errors);
      }
    }
  }

  /** An object of known fields; any other field is left alone (the cluster may be newer). */
  record Fields(Map<String, PodField> fields, Set<String> required, List<Rule> rules)
      implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      if (!(value instanceof Map<?, ?> map)) {
        errors.add(wrong(at, "an object", value));
        return;
      }
      for (var name : required) {
        if (map.get(name) == null) {
          errors.add(new FieldError(at + "." + name, "is required"));
        }
      }
      map.forEach(
          (k, v) -> {
            var field = fields.get(String.valueOf(k));
            if (field != null && v != null) {
              field.check(at + "." + k, v, errors);
            }
          });
      for (var rule : rules) {
        rule.check(at, map, errors);
      }
    }

    /** These fields and {@code more}. */
    Fields with(Map<String, PodField> more) {
      var all = new LinkedHashMap<>(fields);
      all.putAll(more);
      return new Fields(Map.copyOf(all), required, rules);
    }

    /** These fields with {@code name} checked as {@code field} instead. */
    Fields replacing(String name, PodField field) {
      return with(Map.of(name, field));
    }

    Fields requiring(String... names) {
      return new Fields(fields, Set.of(names), rules);
    }

    Fields ruledBy(Rule... more) {
      return new Fields(fields, required, List.of(more));
    }
  }

  /** A list of {@code item}s, at least {@code min} of them. */
  record Items(PodField item, int min, ListRule rule) implements PodField {
    @Override
    public void check(String at, Object value, List<FieldError> errors) {
      if (!(value instanceof List<?> list)) {
        errors.add(wrong(at, "a list", value));
        return;
      }
      if (list.size() < min) {
        errors.add(new FieldError(at, "must hold at least " + min + " entry"));
      }
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) != null) {
          item.check(at + "[" + i + "]", list.get(i), errors);
        }
      }
      if (rule != null) {
        rule.check(at, list, errors);
      }
    }
  }

  /** A map of keys that {@code key} accepts to {@code value}s. */
  record Entries(Predicate<String> key, String keyExpected, PodField value, Rule rule)
      implements PodField {
    @Override
    public void check(String at, Object node, List<FieldError> errors) {
      if (!(node instanceof Map<?, ?> map)) {
        errors.add(wrong(at, "an object", node));
        return;
      }
      map.forEach(
          (k, v) -> {
            var name = String.valueOf(k);
            if (key != null && !key.test(name)) {
              errors.add(new FieldError(at + "." + name, "is not " + keyExpected));
            }
            if (v == null) {
              errors.add(new FieldError(at + "." + name, "must not be null"));
            } else {
              value.check(at + "." + name, v, errors);
            }
          });
      if (rule != null) {
        rule.check(at, map, errors);
      }
    }
  }

  /** The value as a whole number, or null when the document wrote something else. */
  static BigInteger whole(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return BigInteger.valueOf(((Number) value).longValue());
    }
    return value instanceof BigInteger b ? b : null;
  }

  /** "must be {@code expected}, was {@code value}", the value cut to 40 characters. */
  static FieldError wrong(String at, String expected, Object value) {
    return new FieldError(at, "must be " + expected + ", was " + shown(value));
  }

  /** A value as a message may show it: short, one line, nothing a log cannot carry. */
  static String shown(Object value) {
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    var text = String.valueOf(value);
    var out = new StringBuilder();
    var points = text.codePoints().iterator();
    for (int n = 0; points.hasNext(); n++) {
      if (n == 40) {
        out.append("...");
        break;
      }
      int c = points.next();
      out.appendCodePoint(Character.isISOControl(c) || (c >= 0xD800 && c <= 0xDFFF) ? '?' : c);
    }
    return value instanceof String ? "\"" + out + "\"" : out.toString();
  }
}
