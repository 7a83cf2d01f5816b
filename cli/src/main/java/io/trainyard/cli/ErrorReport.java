package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;

/**
 * Turns a 4xx/5xx answer into what the user reads. The gateway's errors have the shape {@code
 * {"code","message","errors":[{"field","message"}],"requestId"}}; anything else (a proxy's page, an
 * empty body) is reported by its HTTP status.
 */
final class ErrorReport {
  private static final int SNIPPET = 200;

  private ErrorReport() {}

  static CliException from(int status, String body, ObjectMapper json, boolean tokenSent) {
    JsonNode error = parse(body, json);
    var details = new ArrayList<String>();
    String message;
    if (error != null && error.hasNonNull("message")) {
      message = error.get("message").asText();
      for (JsonNode fieldError : error.path("errors")) {
        String field = QuoteView.text(fieldError, "field");
        String text = QuoteView.text(fieldError, "message");
        details.add("  " + (field == null || field.isBlank() ? "" : field + ": ") + text);
      }
      // "No backend could ever run this job" comes with the decision table that says why.
      if (error.path("decision").path("candidates").isArray()) {
        for (String line : QuoteView.render(error.get("decision"), error.path("warnings"))) {
          details.add("  " + line);
        }
      }
      if (error.hasNonNull("requestId")) {
        details.add("  request id: " + error.get("requestId").asText());
      }
    } else {
      message = "the gateway answered HTTP " + status + snippet(body);
    }
    if (status == 401) {
      details.add(
          tokenSent
              ? "  the token was not accepted: it may have expired, or be for another gateway"
              : "  no token was sent: set TRAINYARD_TOKEN or pass --token");
    }
    return CliException.refused(message, details, error == null ? null : body);
  }

  private static JsonNode parse(String body, ObjectMapper json) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode node = json.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static String snippet(String body) {
    if (body == null || body.isBlank() || body.stripLeading().startsWith("<")) {
      return "";
    }
    String line = body.strip().lines().findFirst().orElse("");
    return ": " + (line.length() > SNIPPET ? line.substring(0, SNIPPET) + "…" : line);
  }
}
