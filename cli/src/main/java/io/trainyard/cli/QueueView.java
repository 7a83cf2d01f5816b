package io.trainyard.cli;

import static io.trainyard.cli.QuoteView.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /v1/queue} as a table: who is next, and why each job waits. */
final class QueueView {
  private QueueView() {}

  /** The {@code jobs} array, in dispatch order; one reason per backend on lines of their own. */
  static List<String> table(JsonNode jobs) {
    if (!jobs.isArray() || jobs.isEmpty()) {
      return List.of("no queued jobs");
    }
    var table = new TextTable("POS", "ID", "NAME", "TEAM", "PRIORITY", "WAITING", "WHY");
    for (JsonNode job : jobs) {
      var reasons = new ArrayList<String>();
      job.path("reasons").forEach(reason -> reasons.add(reason.asText()));
      if (reasons.isEmpty() && text(job, "reason") != null) {
        reasons.add(text(job, "reason"));
      }
      JsonNode age = job.get("ageSeconds");
      table.row(
          text(job, "position"),
          text(job, "id"),
          text(job, "name"),
          text(job, "team"),
          text(job, "priority"),
          age == null || !age.isNumber()
              ? null
              : HumanDuration.format(Duration.ofSeconds(age.asLong())),
          reasons.isEmpty() ? null : reasons.get(0));
      for (String more : reasons.subList(Math.min(1, reasons.size()), reasons.size())) {
        table.note("    also: " + more);
      }
    }
    return table.lines();
  }
}
