package io.trainyard.backend.eks;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The bearer token of every request the backend's Kubernetes client makes. fabric8 asks {@link
 * #getToken()} before each request (and again after a 401), so the token handed out here is the one
 * on the wire.
 *
 * <p>EKS accepts a token for 15 minutes from its signing time; {@code aws eks get-token} tells
 * kubectl it expires after 14. A token is reused for {@link #REFRESH_AFTER} (10 minutes) and then
 * replaced, so one signed just before a long request or a watch reconnect still has minutes left.
 * Time comes from the backend's clock, which tests move.
 *
 * <p>A token that cannot be made (no credentials, AssumeRole refused, STS unreachable) fails the
 * request as a {@link KubernetesClientException}, which the Kubernetes backend types: code 401 when
 * AWS refused our identity or none was found ({@code Unauthenticated}), code 0 otherwise ({@code
 * Retryable}). The token is never logged, nor put in a message. Thread-safe.
 */
final class EksTokenProvider implements OAuthTokenProvider {
  /** How long a token is used before a new one is signed; EKS accepts one for 15 minutes. */
  static final Duration REFRESH_AFTER = Duration.ofMinutes(10);

  private final EksTokenGenerator generator;
  private final Clock clock;
  private String token;
  private Instant signedAt;

  EksTokenProvider(EksTokenGenerator generator, Clock clock) {
    this.generator = Objects.requireNonNull(generator, "generator");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized String getToken() {
    var now = clock.instant();
    // A clock moved backwards (or a token from the future) also gets a new token.
    if (token == null || now.isBefore(signedAt) || !now.isBefore(signedAt.plus(REFRESH_AFTER))) {
      try {
        token = generator.token();
      } catch (SdkException e) {
        throw refused(e);
      }
      signedAt = now;
    }
    return token;
  }

  private static KubernetesClientException refused(SdkException e) {
    var message = "could not make an EKS token: " + EksErrors.words(e);
    if (EksErrors.refusesIdentity(e)) {
      var status = new StatusBuilder().withCode(401).withMessage(message).build();
      return new KubernetesClientException(status);
    }
    return new KubernetesClientException(message, e);
  }
}
