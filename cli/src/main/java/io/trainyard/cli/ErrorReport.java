package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a 4xx/5xx answer into what the user reads, and its {@link ExitStatus} ({@link
 * ExitStatus#forHttp}). The gateway's errors have the shape {@code
 * {"code","message","errors":[{"field","message"}],"requestId"}}; anything else (a proxy's page, an
 * empty body) is reported by its HTTP status.
 */
final class ErrorReport {
  static final String LOGIN_ADVICE =
      "  run `trainyard login` (or set a fresh TRAINYARD_TOKEN, or pass --token)";
  private static final int SNIPPET = 200;

  private ErrorReport() {}

  /** As {@link #from(int, String, ObjectMapper, String, Instant)} for a token not known. */
  static CliException from(int status, String body, ObjectMapper json, boolean tokenSent) {
    return from(status, body, json, tokenSent ? "" : null, Instant.now());
  }

  /**
   * @param token the bearer token sent, or null if none was; read only for its expiry
   */
  static CliException from(int status, String body, ObjectMapper json, String token, Instant now) {
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
      details.addAll(unauthenticated(token, json, now));
    }
    return CliException.answered(status, message, details, error == null ? null : body);
  }

  private static List<String> unauthenticated(String token, ObjectMapper json, Instant now) {
    if (token == null) {
      return List.of("  no token was sent: set TRAINYARD_TOKEN or pass --token", LOGIN_ADVICE);
    }
    var expiry = TokenExpiry.of(token, json);
    if (expiry.isPresent() && !expiry.get().isAfter(now)) {
      return List.of(
          "  the token expired "
              + HumanDuration.format(Duration.between(expiry.get(), now))
              + " ago (at "
              + expiry.get().truncatedTo(ChronoUnit.SECONDS)
              + ")",
          LOGIN_ADVICE);
    }
    return List.of(
        "  the token was not accepted: it may have expired, or be for another gateway",
        LOGIN_ADVICE);
  }

  private static JsonNode parse(String body, ObjectMapper json) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      // An error names the value it refused, which may be the caller's or a job's own text.
      JsonNode node = TerminalText.visibleTree(json.readTree(body));
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static String snippet(String body) {
    if (body == null || body.isBlank() || body.stripLeading().startsWith("<")) {
      return "";
    }
    // Not the gateway's error shape (a proxy's page, say): shown as any answer's text is.
    String line = TerminalText.visible(body.strip().lines().findFirst().orElse(""));
    return ": " + (line.length() > SNIPPET ? line.substring(0, SNIPPET) + "…" : line);
  }
}
