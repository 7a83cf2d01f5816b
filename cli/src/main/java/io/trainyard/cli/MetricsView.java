package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders model metrics: a table of every metric of a job (points, last, best), a small text chart
 * of one series, and runs side by side. Plain ASCII, so it reads in any terminal and in CI logs.
 */
final class MetricsView {
  static final int CHART_ROWS = 8;
  static final int CHART_WIDTH = 60;

  private MetricsView() {}

  /** {@code GET /v1/jobs/{id}/metrics}: the table, then a chart of {@code chartName}'s series. */
  static List<String> job(JsonNode answer, String chartName) {
    var metrics = answer.path("metrics");
    var lines = new ArrayList<String>();
    if (metrics.isEmpty()) {
      lines.add("no metrics for job " + answer.path("jobId").asText() + " yet");
      return lines;
    }
    var table = new TextTable("METRIC", "POINTS", "LAST", "AT", "BEST", "AT", "GOAL");
    JsonNode charted = null;
    for (var series : metrics) {
      table.row(
          series.path("name").asText(),
          Integer.toString(series.path("points").size()),
          number(series.path("last").path("value")),
          position(series.path("last")),
          number(series.path("best").path("value")),
          position(series.path("best")),
          series.path("goal").asText());
      var wanted = chartName != null ? chartName : "loss";
      if (charted == null || series.path("name").asText().equals(wanted)) {
        charted = series; // the wanted one, else the first
      }
    }
    lines.addAll(table.lines());
    if (charted != null && charted.path("points").size() > 1) {
      lines.add("");
      lines.addAll(chart(charted));
    }
    return lines;
  }

  /** {@code GET /v1/metrics/compare}: one row per run. */
  static List<String> compare(JsonNode answer) {
    var metric = answer.path("metric").asText();
    var table = new TextTable("JOB", "NAME", "STATE", "POINTS", "LAST " + metric, "BEST " + metric);
    for (var run : answer.path("runs")) {
      var series = run.path("series");
      table.row(
          run.path("jobId").asText(),
          run.path("name").asText(),
          run.path("state").asText(),
          Integer.toString(series.path("points").size()),
          number(series.path("last").path("value")),
          number(series.path("best").path("value")));
    }
    var lines = new ArrayList<>(table.lines());
    lines.add("best is the " + answer.path("goal").asText() + " of " + metric);
    return lines;
  }

  /** A chart of one series: value up, points in step order across (sampled to fit). */
  static List<String> chart(JsonNode series) {
    var points = series.path("points");
    int n = points.size();
    var values = new double[n];
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      values[i] = points.get(i).path("value").asDouble();
      min = Math.min(min, values[i]);
      max = Math.max(max, values[i]);
    }
    int width = Math.min(n, CHART_WIDTH);
    var grid = new char[CHART_ROWS][width];
    for (var row : grid) {
      java.util.Arrays.fill(row, ' ');
    }
    for (int col = 0; col < width; col++) {
      int i = width == 1 ? 0 : (int) Math.round((double) col * (n - 1) / (width - 1));
      int row =
          max == min
              ? CHART_ROWS / 2
              : (int) Math.round((max - values[i]) / (max - min) * (CHART_ROWS - 1));
      grid[row][col] = '*';
    }
    var top = number(max);
    var bottom = number(min);
    int label = Math.max(top.length(), bottom.length());
    var lines = new ArrayList<String>();
    lines.add(series.path("name").asText() + " by " + axis(points));
    for (int r = 0; r < CHART_ROWS; r++) {
      var text = r == 0 ? top : r == CHART_ROWS - 1 ? bottom : "";
      lines.add(pad(text, label) + " |" + new String(grid[r]).stripTrailing());
    }
    lines.add(" ".repeat(label) + " +" + "-".repeat(width));
    lines.add(
        " ".repeat(label) + "  " + position(points.get(0)) + " .. " + position(points.get(n - 1)));
    return lines;
  }

  private static String axis(JsonNode points) {
    return points.get(0).has("step") ? "step" : "epoch";
  }

  private static String position(JsonNode point) {
    if (point.isMissingNode() || point.isNull()) {
      return "-";
    }
    if (point.has("step")) {
      return "step " + point.path("step").asLong();
    }
    return "epoch " + point.path("epoch").asLong();
  }

  static String number(JsonNode value) {
    return value.isMissingNode() || value.isNull() ? "-" : number(value.asDouble());
  }

  static String number(double value) {
    var text = String.format(Locale.ROOT, "%.6g", value);
    var e = text.indexOf('e');
    var mantissa = e < 0 ? text : text.substring(0, e);
    var exponent = e < 0 ? "" : text.substring(e);
    if (mantissa.contains(".")) {
      mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return mantissa + exponent;
  }

  private static String pad(String text, int width) {
    return " ".repeat(width - text.length()) + text;
  }
}
