package io.trainyard.backend.gke;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.client.http.HttpResponseException;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Supplies fabric8 with a current Google OAuth access token: fabric8 asks before every request (and
 * again once after a 401), so each request carries the token this returns.
 *
 * <p>The first request fetches a token; it is replaced when {@code refreshMargin} of its lifetime
 * ({@code expires_in}) is left, by {@code clock}: Google's tokens live an hour, so with the default
 * margin of 5 minutes a new one is fetched at 55 minutes. A token without an expiry is kept. The
 * decision is ours rather than google-auth's (whose margin is internal) so that it follows the
 * gateway's clock, which tests move. Refreshes are serialized: threads that ask while one is in
 * flight wait for it and share its token.
 *
 * <p>A refresh that fails surfaces as the request's {@link KubernetesClientException}: code 401
 * when Google's token endpoint refused the credentials (the backend is then unhealthy, "credentials
 * refused"), code 0 when it could not be reached (retryable). Tokens are never logged. Thread-safe.
 */
public final class GkeTokenProvider implements OAuthTokenProvider {
  /** How long before expiry a token is replaced. */
  public static final Duration DEFAULT_REFRESH_MARGIN = Duration.ofMinutes(5);

  private static final Logger LOG = LoggerFactory.getLogger(GkeTokenProvider.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String backendId;
  private final GoogleCredentials credentials;
  private final Clock clock;
  private final Duration refreshMargin;
  private AccessToken current;
  private Instant refreshAt;

  /**
   * @param backendId named in log lines and errors
   * @param credentials scoped Google credentials; this provider refreshes them
   */
  public GkeTokenProvider(
      String backendId, GoogleCredentials credentials, Clock clock, Duration refreshMargin) {
    this.backendId = Objects.requireNonNull(backendId, "backendId");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.refreshMargin = Objects.requireNonNull(refreshMargin, "refreshMargin");
    if (refreshMargin.isNegative()) {
      throw new IllegalArgumentException("refreshMargin must be 0 or more");
    }
  }

  /**
   * The current access token, refreshed first when it is missing or near expiry.
   *
   * @throws KubernetesClientException the token could not be refreshed
   */
  @Override
  public synchronized String getToken() {
    if (current == null || !clock.instant().isBefore(refreshAt)) {
      refresh();
    }
    return current.getTokenValue();
  }

  /** When the current token will be replaced, by {@code clock}; null before the first one. */
  synchronized Instant refreshAt() {
    return refreshAt;
  }

  private void refresh() {
    try {
      credentials.refresh();
    } catch (IOException e) {
      throw failure(e);
    }
    var token = credentials.getAccessToken();
    if (token == null) {
      throw new KubernetesClientException(
          backendId + ": Google returned no access token", 401, null);
    }
    var expiry = token.getExpirationTime();
    // google-auth stamps the expiry on the system clock; what is left of the token's life is
    // carried over to the gateway's clock, so both decide alike when they differ (tests).
    refreshAt =
        expiry == null
            ? Instant.MAX
            : clock
                .instant()
                .plus(Duration.between(Instant.now(), expiry.toInstant()))
                .minus(refreshMargin);
    current = token;
    LOG.info(
        "{}: new Google access token, valid until {}",
        backendId,
        expiry == null ? "further notice (no expiry given)" : expiry.toInstant());
  }

  // Google's token endpoint answers 400 invalid_grant for a deleted or disabled key, 401 for an
  // unknown client: our credentials are refused. No answer at all is a network problem.
  private KubernetesClientException failure(IOException e) {
    var answer = httpAnswer(e);
    if (answer != null && answer.getStatusCode() >= 400 && answer.getStatusCode() < 500) {
      return new KubernetesClientException(
          backendId
              + ": Google refused the credentials ("
              + answer.getStatusCode()
              + errorWords(answer.getContent())
              + ")",
          401,
          null);
    }
    var what =
        answer != null
            ? "HTTP " + answer.getStatusCode()
            : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return new KubernetesClientException(
        backendId + ": cannot get a Google access token (" + firstLine(what) + ")", 0, null);
  }

  private static HttpResponseException httpAnswer(Throwable e) {
    for (var t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpResponseException answer) {
        return answer;
      }
    }
    return null;
  }

  // The OAuth error body: {"error": "invalid_grant", "error_description": "..."}.
  private static String errorWords(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      var error = JSON.readTree(body);
      var code = error.path("error").asText("");
      var description = error.path("error_description").asText("");
      return (code.isEmpty() ? "" : " " + code) + (description.isEmpty() ? "" : ": " + description);
    } catch (IOException e) {
      return "";
    }
  }

  private static String firstLine(String text) {
    var nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
