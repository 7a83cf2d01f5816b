package io.trainyard.gateway.logging;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * Wraps the server's request log so that credentials a client put in the query string ({@code
 * ?access_token=...}) are written as {@code REDACTED}: the gateway never reads tokens from the
 * query, but the access log would keep whatever a misconfigured client sent (issue #13).
 */
public final class RedactingRequestLog extends ContainerLifeCycle implements RequestLog {
  /** Query parameters whose values are never logged (compared case-insensitively). */
  static final Set<String> SECRET_PARAMETERS =
      Set.of(
          "access_token",
          "id_token",
          "refresh_token",
          "token",
          "code",
          "client_secret",
          "password",
          "api_key",
          "apikey",
          "key",
          "signature",
          "x-amz-signature",
          "x-amz-credential",
          "x-amz-security-token");

  static final String REDACTED = "REDACTED";

  private final RequestLog delegate;

  private RedactingRequestLog(RequestLog delegate) {
    this.delegate = delegate;
    addBean(delegate); // started and stopped with this wrapper, as it was with the server
  }

  /**
   * Puts the redaction in front of {@code server}'s request log when the server starts, before its
   * first request; Dropwizard sets the log while building the server.
   */
  public static LifeCycle.Listener installer() {
    return new LifeCycle.Listener() {
      @Override
      public void lifeCycleStarting(LifeCycle event) {
        if (event instanceof Server server
            && server.getRequestLog() != null
            && !(server.getRequestLog() instanceof RedactingRequestLog)) {
          server.setRequestLog(new RedactingRequestLog(server.getRequestLog()));
        }
      }
    };
  }

  @Override
  public void log(Request request, Response response) {
    var uri = request.getHttpURI();
    var query = uri.getQuery();
    var path = uri.getPath();
    var safeQuery = query == null ? null : redact(query);
    var safePath = path == null ? null : redact(path);
    var safeHeaders = escapedHeaders(request.getHeaders());
    if (java.util.Objects.equals(safeQuery, query)
        && java.util.Objects.equals(safePath, path)
        && safeHeaders == null) {
      delegate.log(request, response);
      return;
    }
    var safe =
        java.util.Objects.equals(safeQuery, query) && java.util.Objects.equals(safePath, path)
            ? uri
            : HttpURI.build(uri).path(safePath).query(safeQuery).asImmutable();
    var headers = safeHeaders == null ? request.getHeaders() : safeHeaders;
    delegate.log(
        new Request.Wrapper(request) {
          @Override
          public HttpURI getHttpURI() {
            return safe;
          }

          @Override
          public HttpFields getHeaders() {
            return headers;
          }
        },
        response);
  }

  /** The headers an access log writes that the caller chose freely. */
  private static final List<HttpHeader> LOGGED_HEADERS =
      List.of(HttpHeader.USER_AGENT, HttpHeader.REFERER);

  /**
   * {@code headers} with the logged ones' control characters (C1's NEL among them, which some
   * viewers take for a line break) and direction overrides escaped; null when none needs it.
   */
  static HttpFields escapedHeaders(HttpFields headers) {
    HttpFields.Mutable escaped = null;
    for (var name : LOGGED_HEADERS) {
      var value = headers.get(name);
      if (value == null) {
        continue;
      }
      var printable = LogEscape.printable(value);
      if (!printable.equals(value)) {
        if (escaped == null) {
          escaped = HttpFields.build(headers);
        }
        escaped.put(name, printable);
      }
    }
    return escaped;
  }

  /** A JSON Web Token wherever it is (a path, any parameter): its three base64url parts. */
  private static final java.util.regex.Pattern JWT =
      java.util.regex.Pattern.compile("eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*");

  /**
   * {@code text} (a query string, or a path with {@code ;} parameters) with the value of every
   * secret parameter replaced, whether separated by {@code &} or {@code ;}, and every JWT-shaped
   * string replaced wherever it stands.
   */
  static String redact(String text) {
    var out = new StringBuilder(text.length());
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '&' || text.charAt(i) == ';') {
        var pair = text.substring(start, i);
        var eq = pair.indexOf('=');
        var name = eq < 0 ? pair : pair.substring(0, eq);
        if (eq >= 0 && SECRET_PARAMETERS.contains(decodedName(name))) {
          out.append(name).append('=').append(REDACTED);
        } else {
          out.append(pair);
        }
        if (i < text.length()) {
          out.append(text.charAt(i));
        }
        start = i + 1;
      }
    }
    return JWT.matcher(out).replaceAll(REDACTED);
  }

  // %5F is "_": a name spelled with escapes is still the same parameter to a server.
  private static String decodedName(String name) {
    try {
      // Trimmed: "access_token+=" is the same parameter to many servers.
      return java.net.URLDecoder.decode(name, java.nio.charset.StandardCharsets.UTF_8)
          .strip()
          .toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return name.toLowerCase(Locale.ROOT);
    }
  }
}
