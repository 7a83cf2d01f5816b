package io.trainyard.gateway.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One metric of one job: its points in step order, the last one, and the best one. Best is the
 * smallest value for names that look like a loss or an error ({@code loss}, {@code val_loss},
 * {@code error_rate}, {@code mae}, {@code rmse}, {@code perplexity}, ...), else the largest, unless
 * the caller says which ({@code goal=min|max}).
 *
 * @param goal {@code min} or {@code max}: how {@code best} was chosen
 */
public record MetricSeries(
    String name, String goal, MetricPoint last, MetricPoint best, List<MetricPoint> points) {
  private static final Pattern LOWER_IS_BETTER =
      Pattern.compile(
          ".*(loss|error|err|mae|mse|rmse|mape|perplexity|ppl|wer|cer|latency|time|distance).*");

  public MetricSeries {
    points = List.copyOf(points);
  }

  /** {@code min} for loss/error-like names, else {@code max}. */
  public static String defaultGoal(String name) {
    return LOWER_IS_BETTER.matcher(name.toLowerCase(Locale.ROOT)).matches() ? "min" : "max";
  }

  /**
   * One series per name, in name order.
   *
   * @param points in name, then step order
   * @param goal {@code min}, {@code max}, or null for each name's default
   */
  public static List<MetricSeries> of(List<MetricPoint> points, String goal) {
    var byName = new LinkedHashMap<String, List<MetricPoint>>();
    for (var p : points) {
      byName.computeIfAbsent(p.name(), n -> new ArrayList<>()).add(p);
    }
    var result = new ArrayList<MetricSeries>();
    byName.forEach((name, list) -> result.add(one(name, list, goal)));
    return result;
  }

  /** The series of {@code name} from its points (possibly none). */
  public static MetricSeries one(String name, List<MetricPoint> points, String goal) {
    var wanted = goal != null ? goal : defaultGoal(name);
    MetricPoint best = null;
    for (var p : points) {
      if (best == null
          || (wanted.equals("min") ? p.value() < best.value() : p.value() > best.value())) {
        best = p;
      }
    }
    var last = points.isEmpty() ? null : points.get(points.size() - 1);
    return new MetricSeries(name, wanted, last, best, points);
  }
}
