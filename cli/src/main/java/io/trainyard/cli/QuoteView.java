package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The routing decision table: every backend, its price, and why it was or was not chosen. */
final class QuoteView {
  private QuoteView() {}

  /** A {@code POST /v1/quotes} answer. */
  static List<String> render(JsonNode quote) {
    return render(quote, quote.path("warnings"));
  }

  /** A decision (as in a dry run's {@code decision}) with warnings kept beside it. */
  static List<String> render(JsonNode decision, JsonNode warnings) {
    // The whole job's total is shown only when the gateway gave one (the spec had hours).
    boolean totals = false;
    for (JsonNode candidate : decision.path("candidates")) {
      totals |= candidate.hasNonNull("estimatedTotalUsd");
    }
    var table =
        totals
            ? new TextTable(
                "BACKEND", "KIND", "REGION", "SPOT", "$/H", "EST.$", "TOTAL.$", "DECISION")
            : new TextTable("BACKEND", "KIND", "REGION", "SPOT", "$/H", "EST.$", "DECISION");
    boolean anyEstimated = false;
    for (JsonNode candidate : decision.path("candidates")) {
      boolean estimated = candidate.path("estimated").asBoolean(false);
      anyEstimated |= estimated;
      var cells = new ArrayList<String>();
      cells.add(text(candidate, "backendId"));
      cells.add(text(candidate, "kind"));
      cells.add(text(candidate, "region"));
      cells.add(spot(candidate.get("spot")));
      cells.add(price(candidate.get("hourlyUsd"), estimated));
      cells.add(price(candidate.get("estimatedUsd"), estimated));
      if (totals) {
        cells.add(price(candidate.get("estimatedTotalUsd"), estimated));
      }
      cells.add(verdict(candidate));
      table.row(cells.toArray(String[]::new));
      for (JsonNode note : candidate.path("notes")) {
        table.note("    note: " + note.asText());
      }
    }
    var lines = new ArrayList<>(table.lines());
    if (anyEstimated) {
      lines.add("* estimated price");
    }
    String policy = text(decision, "policy");
    String chosen = text(decision, "chosen");
    lines.add(
        (policy == null ? "" : "policy " + policy + ": ")
            + (chosen == null ? "no backend can take this job now" : "runs on " + chosen));
    String choice = text(decision, "choice");
    if (choice != null) {
      lines.add("why: " + choice);
    }
    for (JsonNode warning : warnings) {
      lines.add("warning: " + warning.asText());
    }
    return lines;
  }

  private static String verdict(JsonNode candidate) {
    if (candidate.path("chosen").asBoolean(false)) {
      return "chosen";
    }
    String rejected = text(candidate, "rejected");
    return rejected == null ? "not chosen" : "rejected: " + rejected;
  }

  private static String spot(JsonNode spot) {
    if (spot == null || !spot.isBoolean()) {
      return null;
    }
    return spot.asBoolean() ? "yes" : "no";
  }

  private static String price(JsonNode amount, boolean estimated) {
    String formatted = Usd.format(amount);
    return formatted == null || !estimated ? formatted : formatted + "*";
  }

  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
