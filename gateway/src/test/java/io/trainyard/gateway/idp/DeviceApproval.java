package io.trainyard.gateway.idp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieHandler;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a person does in the browser to approve a device login, done over Keycloak's own pages: open
 * the verification link, sign in, grant the access. A cookie jar and two form posts; no browser, no
 * Keycloak internals.
 */
final class DeviceApproval {
  private static final Pattern LOGIN_FORM =
      Pattern.compile("<form[^>]*id=\"kc-form-login\"[^>]*action=\"([^\"]+)\"");
  private static final Pattern CONSENT_FORM =
      Pattern.compile("<form[^>]*action=\"([^\"]*/login-actions/consent[^\"]*)\"");
  private static final Pattern CODE = Pattern.compile("name=\"code\" value=\"([^\"]+)\"");

  private final HttpClient browser =
      HttpClient.newBuilder()
          .cookieHandler(new LoopbackCookies())
          .followRedirects(HttpClient.Redirect.NORMAL)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /**
   * A cookie jar for one loopback host. Keycloak marks its cookies Secure on 127.0.0.1, which
   * browsers treat as a secure context but {@link java.net.CookieManager} does not: it would never
   * send them back over http, and Keycloak would answer "cookie not found".
   */
  private static final class LoopbackCookies extends CookieHandler {
    private final Map<String, String> cookies = new ConcurrentHashMap<>();

    @Override
    public Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) {
      if (cookies.isEmpty()) {
        return Map.of();
      }
      var header =
          cookies.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining("; "));
      return Map.of("Cookie", List.of(header));
    }

    @Override
    public void put(URI uri, Map<String, List<String>> headers) {
      headers.forEach(
          (name, values) -> {
            if ("set-cookie".equalsIgnoreCase(name)) {
              for (var cookie : values) {
                var pair = cookie.split(";", 2)[0];
                int eq = pair.indexOf('=');
                if (eq > 0) {
                  cookies.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
                }
              }
            }
          });
    }
  }

  /** Signs in as the user on the verification page and grants the access; returns the last page. */
  String approve(String verificationUriComplete, String user, String password) {
    var page = get(URI.create(verificationUriComplete));
    var login = find(LOGIN_FORM, page.body(), "the sign-in form");
    page =
        post(
            page.uri().resolve(login),
            Map.of("username", user, "password", password, "credentialId", ""));
    var consent = CONSENT_FORM.matcher(page.body());
    if (consent.find()) {
      var code = find(CODE, page.body(), "the consent code");
      page =
          post(
              page.uri().resolve(unescape(consent.group(1))),
              Map.of("code", code, "accept", "Yes"));
    }
    return page.body();
  }

  private static String find(Pattern pattern, String html, String what) {
    var matcher = pattern.matcher(html);
    if (!matcher.find()) {
      throw new AssertionError("no " + what + " on Keycloak's page:\n" + html);
    }
    return unescape(matcher.group(1));
  }

  private static String unescape(String html) {
    return html.replace("&amp;", "&");
  }

  private HttpResponse<String> get(URI uri) {
    return send(HttpRequest.newBuilder(uri).GET().build());
  }

  private HttpResponse<String> post(URI uri, Map<String, String> form) {
    var body =
        new LinkedHashMap<>(form)
            .entrySet().stream()
                .map(
                    e ->
                        URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                            + "="
                            + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    return send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      var response = browser.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError(
            "Keycloak answered " + response.statusCode() + " at " + response.uri());
      }
      return response;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
