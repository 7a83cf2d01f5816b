package io.trainyard.cli;

import static io.trainyard.cli.QuoteView.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** Jobs as tables and {@code key: value} lines. */
final class JobView {
  private JobView() {}

  /** The {@code jobs} array of {@code GET /v1/jobs}. */
  static List<String> table(JsonNode jobs, Instant now) {
    if (!jobs.isArray() || jobs.isEmpty()) {
      return List.of("no jobs");
    }
    var table = new TextTable("ID", "NAME", "STATE", "BACKEND", "AGE/DURATION");
    for (JsonNode job : jobs) {
      table.row(
          text(job, "id"),
          text(job, "name"),
          text(job, "state"),
          text(job, "backend"),
          timing(job, now));
    }
    return table.lines();
  }

  /** How long an ended job took, or how long ago a live one was created. */
  static String timing(JsonNode job, Instant now) {
    if (JobWatch.isEnded(text(job, "state"))) {
      Duration took = duration(job);
      return took == null ? null : HumanDuration.format(took);
    }
    Instant created = instant(job, "createdAt");
    return created == null ? null : HumanDuration.format(Duration.between(created, now)) + " ago";
  }

  /** {@code durationSeconds}, else the time between start (or creation) and end. */
  static Duration duration(JsonNode job) {
    JsonNode seconds = job.get("durationSeconds");
    if (seconds != null && seconds.isNumber()) {
      return Duration.ofMillis(Math.round(seconds.asDouble() * 1000));
    }
    Instant start = instant(job, "startedAt");
    Instant end = instant(job, "endedAt");
    if (start == null) {
      start = instant(job, "createdAt");
    }
    return start == null || end == null ? null : Duration.between(start, end);
  }

  /** One job as aligned {@code key: value} lines; absent fields are left out. */
  static List<String> details(JsonNode job) {
    var fields = new LinkedHashMap<String, String>();
    fields.put("id", text(job, "id"));
    fields.put("name", text(job, "name"));
    fields.put("team", text(job, "team"));
    fields.put("owner", text(job, "owner"));
    fields.put("state", text(job, "state"));
    fields.put("attempt", text(job, "attempt"));
    fields.put("backend", text(job, "backend"));
    fields.put("object", text(job, "objectName"));
    fields.put("hourly", dollars(job.get("hourlyUsd"), "/h"));
    fields.put("estimated", dollars(job.get("estimatedUsd"), ""));
    fields.put("reason", text(job, "reason"));
    fields.put("restarts", text(job, "restarts"));
    fields.put("created", timestamp(job, "createdAt"));
    fields.put("submitted", timestamp(job, "submittedAt"));
    fields.put("started", timestamp(job, "startedAt"));
    fields.put("ended", timestamp(job, "endedAt"));
    Duration took = duration(job);
    fields.put("duration", took == null ? null : HumanDuration.format(took));
    var lines = new ArrayList<String>();
    fields.forEach(
        (key, value) -> {
          if (value != null) {
            lines.add(String.format("%-11s%s", key + ":", value));
          }
        });
    return lines;
  }

  /** The 201 answer of {@code POST /v1/jobs}. */
  static List<String> submitted(JsonNode answer) {
    var lines = new ArrayList<String>();
    lines.add(
        "submitted job "
            + text(answer, "id")
            + " ("
            + text(answer, "name")
            + ", team "
            + text(answer, "team")
            + ")");
    String backend = text(answer, "backend");
    lines.add(
        "  state:   " + text(answer, "state") + ", attempt " + answer.path("attempt").asText("1"));
    lines.add(
        backend == null
            ? "  backend: none yet"
            : "  backend: "
                + backend
                + " at "
                + dollars(answer.get("hourlyUsd"), "/h")
                + ", estimated "
                + dollars(answer.get("estimatedUsd"), ""));
    for (JsonNode warning : answer.path("warnings")) {
      lines.add("warning: " + warning.asText());
    }
    return lines;
  }

  /** The 200 answer of {@code POST /v1/jobs?dryRun=true}. */
  static List<String> dryRun(JsonNode answer) {
    var lines = new ArrayList<String>();
    lines.add("dry run: nothing was submitted");
    // The decision comes nested under "decision" or unwrapped beside "dryRun"; read either.
    JsonNode decision = answer.path("decision").isObject() ? answer.get("decision") : answer;
    lines.addAll(QuoteView.render(decision, answer.path("warnings")));
    return lines;
  }

  private static String dollars(JsonNode amount, String unit) {
    String formatted = Usd.format(amount);
    return formatted == null ? null : "$" + formatted + unit;
  }

  /** ISO-8601 to the second, whether the gateway sent a string or epoch seconds. */
  private static String timestamp(JsonNode job, String field) {
    Instant instant = instant(job, field);
    return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static Instant instant(JsonNode job, String field) {
    JsonNode value = job.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isNumber()) {
      // Jackson writes an Instant as decimal epoch seconds unless told otherwise; millis are
      // recognisable by their size.
      double number = value.asDouble();
      return Instant.ofEpochMilli(number < 1e11 ? Math.round(number * 1000) : (long) number);
    }
    try {
      return Instant.parse(value.asText());
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
