package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * {@code trainyard spend [TEAM]} and {@code trainyard backends}: the dashboard's Spend and Backends
 * pages as tables, over {@code GET /v1/spend} and {@code GET /v1/backends}.
 */
final class DashboardCommands {
  private final GatewayClient client;
  private final Terminal terminal;
  private final CommandLine.Output output;

  DashboardCommands(GatewayClient client, Terminal terminal, CommandLine.Output output) {
    this.client = client;
    this.terminal = terminal;
    this.output = output;
  }

  /** Per team: a table of each backend's spend, then a line per managed platform. */
  int spend(CommandLine line) {
    var query = new ArrayList<String>();
    if (!line.operands().isEmpty()) {
      query.add("team=" + encode(line.operand()));
    }
    for (var option : List.of("--since", "--until", "--granularity")) {
      var value = line.option(option);
      if (value != null) {
        query.add(option.substring(2) + "=" + encode(value));
      }
    }
    var body = client.get("/v1/spend" + (query.isEmpty() ? "" : "?" + String.join("&", query)));
    if (raw(body)) {
      return ExitStatus.OK.code();
    }
    print(spendLines(client.parse(body)));
    return ExitStatus.OK.code();
  }

  static List<String> spendLines(JsonNode report) {
    var lines = new ArrayList<String>();
    lines.add(
        "spend "
            + report.path("since").asText()
            + " .. "
            + report.path("until").asText()
            + " (per "
            + report.path("granularity").asText()
            + ")");
    var teams = new TreeSet<String>();
    report.path("series").forEach(s -> teams.add(s.path("team").asText()));
    report.path("budgets").forEach(b -> teams.add(b.path("team").asText()));
    if (teams.isEmpty()) {
      lines.add("no spend in this window");
    }
    for (var team : teams) {
      lines.add("");
      var budget = find(report.path("budgets"), team);
      lines.add(
          "team "
              + team
              + (budget == null
                  ? ""
                  : "  (budget $" + Usd.format(budget.path("monthlyUsd")) + "/month)"));
      var table = new TextTable("BACKEND", "USD", "BUSIEST", "BUSIEST.$");
      for (var series : report.path("series")) {
        if (!series.path("team").asText().equals(team)) {
          continue;
        }
        var total = java.math.BigDecimal.ZERO;
        JsonNode busiest = null;
        for (var point : series.path("points")) {
          total = total.add(point.path("usd").decimalValue());
          if (busiest == null
              || point.path("usd").decimalValue().compareTo(busiest.path("usd").decimalValue())
                  > 0) {
            busiest = point;
          }
        }
        table.row(
            series.path("backend").asText("-"),
            Usd.format(com.fasterxml.jackson.databind.node.DecimalNode.valueOf(total)),
            busiest == null ? "-" : busiest.path("start").asText().substring(0, 10),
            busiest == null ? "-" : Usd.format(busiest.path("usd")));
      }
      lines.addAll(table.lines());
      var comparison = find(report.path("comparison"), team);
      if (comparison != null) {
        lines.add(
            comparison.path("jobs").asInt()
                + " job(s) cost $"
                + Usd.format(comparison.path("actualUsd"))
                + "; on a managed platform the same running time would have cost:");
        for (var m : comparison.path("managed")) {
          lines.add(
              "  "
                  + m.path("backend").asText()
                  + ": $"
                  + Usd.format(m.path("usd"))
                  + " ("
                  + m.path("jobsQuoted").asInt()
                  + " of "
                  + comparison.path("jobs").asInt()
                  + " job(s) had an offer there)");
        }
        if (comparison.path("managed").isEmpty()) {
          lines.add("  (no managed platform quoted these jobs)");
        }
      }
    }
    return lines;
  }

  /** A row per backend: health, jobs, capacity, catalog age. */
  int backends() {
    var body = client.get("/v1/backends");
    if (raw(body)) {
      return ExitStatus.OK.code();
    }
    print(backendLines(client.parse(body)));
    return ExitStatus.OK.code();
  }

  static List<String> backendLines(JsonNode list) {
    var table =
        new TextTable("BACKEND", "KIND", "HEALTH", "RUNNING", "QUEUED", "GPUS", "CPUS", "PRICES");
    for (var b : list.path("backends")) {
      var healthy = b.path("health").path("healthy").asBoolean(b.path("healthy").asBoolean());
      table.row(
          b.path("id").asText(),
          b.path("kind").asText(),
          healthy ? "ok" : "DOWN",
          b.path("jobs").path("running").asText("-"),
          b.path("jobs").path("queued").asText("-"),
          use(b.path("capacity").path("gpus")),
          use(b.path("capacity").path("cpus")),
          age(b.path("catalog")));
      if (!healthy) {
        var reason = b.path("health").path("reason").asText(b.path("message").asText(""));
        if (!reason.isEmpty()) {
          table.note("  " + b.path("id").asText() + ": " + reason);
        }
      }
    }
    return table.lines();
  }

  private static String use(JsonNode use) {
    if (use.isMissingNode()) {
      return "-";
    }
    var used = number(use.path("used"));
    var limit = use.path("limit");
    return limit.isNull() || limit.isMissingNode() ? used : used + "/" + number(limit);
  }

  private static String number(JsonNode n) {
    if (!n.isNumber()) {
      return "-";
    }
    var d = n.asDouble();
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
  }

  private static String age(JsonNode catalog) {
    if (!catalog.path("ageSeconds").isNumber()) {
      return "age unknown";
    }
    var days = catalog.path("ageSeconds").asLong() / 86_400;
    return days + "d old";
  }

  private static JsonNode find(JsonNode array, String team) {
    for (var entry : array) {
      if (entry.path("team").asText().equals(team)) {
        return entry;
      }
    }
    return null;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private boolean raw(String body) {
    if (output == CommandLine.Output.JSON) {
      terminal.out().println(body.stripTrailing());
      return true;
    }
    return false;
  }

  private void print(List<String> lines) {
    lines.forEach(terminal.out()::println);
  }
}
