package io.trainyard.gateway.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.gateway.api.ErrorResponse;
import io.trainyard.spi.spec.FieldError;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error pages in the API's error shape: what Jetty refuses before Jersey sees a request (an
 * ambiguous path such as {@code //v1/jobs} or {@code /%2e%2e/}, headers or a URI too large, a
 * request that does not parse, a path no servlet serves on the admin port) comes back as {@code
 * {code, message, errors[], requestId}} like every other error, never an HTML page. Jetty's own
 * message is not repeated: it can quote the request. Installed on the server and on the application
 * and admin contexts. Thread-safe.
 */
public final class JsonErrorHandler extends ErrorHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Always our body: Jetty's own handler writes none for a request whose method it does not know
   * (what an unparsable or ambiguous request has) and HTML or its own JSON otherwise.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    var code = response.getStatus();
    if (request.getAttribute(ERROR_EXCEPTION) instanceof HttpException http) {
      code = http.getCode();
      response.setStatus(code);
    }
    var error = code == HttpStatus.BAD_REQUEST_400 ? badHeader(request) : null;
    var coding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
    if (code == HttpStatus.UNSUPPORTED_MEDIA_TYPE_415
        && coding != null
        && !ContentEncodings.isSupported(coding)) {
      error = ENCODING;
    }
    if (error == null) {
      error = error(code);
    }
    if (code == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
      // The caller's request, not the server, is at fault: a 4xx like every other refusal.
      code = HttpStatus.BAD_REQUEST_400;
      response.setStatus(code);
      error = VERSION;
    }
    var id = UUID.randomUUID().toString();
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put(RequestIds.HEADER, id);
    if (HttpStatus.hasNoBody(code)) {
      callback.succeeded();
      return true;
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(body(code, id, error)), callback);
    return true;
  }

  // Possessive throughout: a header of 8 KiB of blanks must not cost quadratic backtracking.
  private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]++";
  private static final String PARAMETER =
      "\\s*+;\\s*+" + TOKEN + "=(?:" + TOKEN + "|\"(?:[^\"\\\\]|\\\\.)*+\")";
  private static final java.util.regex.Pattern MEDIA_TYPE =
      java.util.regex.Pattern.compile(TOKEN + "/" + TOKEN + "(?:" + PARAMETER + ")*+\\s*+");
  private static final java.util.regex.Pattern QUALITY =
      java.util.regex.Pattern.compile(
          ";\\s*q=(?!(?:0(?:\\.\\d{0,3})?|1(?:\\.0{0,3})?)\\s*(?:;|$))");

  /**
   * The header a 400 is about when Jersey refused a {@code Content-Type} or {@code Accept} it could
   * not parse (it answers those before any resource or mapper sees the request); null otherwise.
   */
  static FieldError badHeader(Request request) {
    var type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    if (type != null && !MEDIA_TYPE.matcher(type).matches()) {
      return new FieldError("Content-Type", "is not a media type such as application/yaml");
    }
    var accept = request.getHeaders().get(HttpHeader.ACCEPT);
    if (accept != null) {
      for (var range : accept.split(",", -1)) {
        var trimmed = range.strip();
        if (!trimmed.isEmpty()
            && (!MEDIA_TYPE.matcher(trimmed).matches() || QUALITY.matcher(trimmed).find())) {
          return new FieldError(
              "Accept", "is not a list of media ranges such as application/json;q=0.9");
        }
      }
    }
    return null;
  }

  private static final FieldError ENCODING =
      new FieldError("Content-Encoding", "names a coding this server does not read (gzip does)");

  private static final FieldError VERSION =
      new FieldError("request", "uses an HTTP version this server does not speak (HTTP/1.1 does)");

  static byte[] body(int status, String requestId) {
    return body(status, requestId, error(status));
  }

  private static byte[] body(int status, String requestId, FieldError error) {
    var code = ErrorCode.forStatus(status);
    try {
      return JSON.writeValueAsString(
              new ErrorResponse(
                  code.name(),
                  error.field() + " " + error.message(),
                  List.of(error),
                  requestId,
                  null))
          .getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an error body could not be written", e);
    }
  }

  /** What was wrong with the request, by the part of it Jetty refused. */
  static FieldError error(int status) {
    return switch (status) {
      case 400 ->
          new FieldError(
              "request",
              "could not be read: a malformed request line or header, or an ambiguous path"
                  + " (empty segments, encoded '.', '/' or '\\\\' are refused)");
      case 404 -> new FieldError("path", "names no resource");
      case 408 -> new FieldError("body", "arrived too slowly, or not at all; send it at once");
      case 405 -> new FieldError("method", "is not allowed on this resource");
      case 406 -> new FieldError("Accept", "names no media type this resource answers in");
      case 413 -> new FieldError("body", "is too large");
      case 414 -> new FieldError("uri", "is too long");
      case 415 -> new FieldError("Content-Type", "is not supported here");
      case 431 -> new FieldError("headers", "are too large");
      default ->
          new FieldError("request", status < 500 ? "was refused (HTTP " + status + ")" : "failed");
    };
  }
}
