package io.trainyard.gateway.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A scrape in the Prometheus text format (0.0.4), read as Prometheus reads it, for tests: samples
 * with their labels, and the {@code # TYPE} of each family.
 */
public record PrometheusText(List<Sample> samples, Map<String, String> types) {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\S+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  public record Sample(String name, Map<String, String> labels, double value) {
    /** Whether every given label has the given value; an empty value also matches no label. */
    public boolean has(Map<String, String> wanted) {
      return wanted.entrySet().stream()
          .allMatch(e -> labels.getOrDefault(e.getKey(), "").equals(e.getValue()));
    }
  }

  public static PrometheusText parse(String text) {
    var samples = new ArrayList<Sample>();
    var types = new LinkedHashMap<String, String>();
    for (var line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("# TYPE ")) {
        var parts = line.split(" ");
        types.put(parts[2], parts[3]);
        continue;
      }
      if (line.startsWith("#")) {
        continue;
      }
      var m = SAMPLE.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample line: " + line);
      }
      var labels = new LinkedHashMap<String, String>();
      if (m.group(2) != null) {
        var l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
      }
      samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
    }
    return new PrometheusText(List.copyOf(samples), Map.copyOf(types));
  }

  /** What {@code registry} would serve at {@code /prometheus} now, read back. */
  public static PrometheusText of(
      io.prometheus.metrics.model.registry.PrometheusRegistry registry) {
    var out = new java.io.ByteArrayOutputStream();
    try {
      io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create()
          .write(out, registry.scrape());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return parse(out.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The one sample of {@code name} with these labels, if there is one. */
  public Optional<Double> value(String name, Map<String, String> labels) {
    var found = samples.stream().filter(s -> s.name().equals(name) && s.has(labels)).toList();
    if (found.size() > 1) {
      throw new AssertionError(found.size() + " samples of " + name + " match " + labels);
    }
    return found.stream().map(Sample::value).findFirst();
  }

  /** {@link #value}, or 0 when the series is not there (a counter never incremented). */
  public double valueOrZero(String name, Map<String, String> labels) {
    return value(name, labels).orElse(0.0);
  }
}
