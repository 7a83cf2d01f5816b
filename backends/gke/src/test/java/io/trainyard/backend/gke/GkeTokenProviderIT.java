package io.trainyard.backend.gke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * google-auth-library's service-account flow against a local token endpoint that verifies the
 * JWT-bearer grant, and fabric8 carrying the tokens it yields to a TLS API server.
 */
class GkeTokenProviderIT {
  @TempDir Path dir;
  private FakeGoogleTokenEndpoint google;
  private MutableClock clock;
  private GkeTokenProvider tokens;

  @BeforeEach
  void start() {
    google = new FakeGoogleTokenEndpoint();
    clock = new MutableClock();
    var credentials = GkeCredentials.fromKeyFile(google.writeKey(dir.resolve("sa.json")));
    tokens =
        new GkeTokenProvider(
            "gke-test", credentials, clock, GkeTokenProvider.DEFAULT_REFRESH_MARGIN);
  }

  @AfterEach
  void stop() {
    google.close();
  }

  @Test
  void theKeySignsAGrantTheEndpointAcceptsAndTheTokenIsReusedUntilNearExpiry() {
    assertThat(google.calls()).as("reading the key asks nothing of Google").isZero();

    for (int i = 0; i < 5; i++) {
      assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(1));
    }

    assertThat(google.refusals()).isEmpty();
    assertThat(google.calls()).isEqualTo(1);
  }

  @Test
  void aTokenIsReplacedWhenFiveMinutesOfItsHourAreLeftByTheGatewaysClock() {
    var fetched = clock.instant();
    tokens.getToken();
    var refreshAt = tokens.refreshAt();
    // The lifetime is measured when the answer arrives, a moment after it was sent.
    assertThat(refreshAt)
        .isBetween(fetched.plus(Duration.ofMinutes(54)), fetched.plus(Duration.ofMinutes(55)));

    clock.set(refreshAt.minusMillis(1));
    assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(1));
    clock.set(refreshAt);
    assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(2));
    assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(2));

    assertThat(google.issued()).isEqualTo(2);
    assertThat(google.refusals()).isEmpty();
  }

  @Test
  void aTokenThatLivesLessThanTheMarginIsFetchedForEveryRequest() {
    google.expiresIn(Duration.ofMinutes(4));

    assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(1));
    assertThat(tokens.getToken()).isEqualTo(FakeGoogleTokenEndpoint.token(2));
  }

  @Test
  void threadsAskingAtExpiryShareOneRefresh() throws Exception {
    tokens.getToken();
    clock.advance(Duration.ofHours(1));
    var pool = Executors.newFixedThreadPool(8);
    try {
      var go = new CountDownLatch(1);
      var asks = new ArrayList<Callable<String>>();
      for (int i = 0; i < 8; i++) {
        asks.add(
            () -> {
              go.await();
              return tokens.getToken();
            });
      }
      var answers = new ArrayList<Future<String>>();
      asks.forEach(a -> answers.add(pool.submit(a)));
      go.countDown();
      for (var answer : answers) {
        assertThat(answer.get()).isEqualTo(FakeGoogleTokenEndpoint.token(2));
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(google.issued()).isEqualTo(2);
  }

  @Test
  void everyApiRequestCarriesTheCurrentToken() throws Exception {
    try (var cluster = new CrudApiServer(true);
        var client =
            GkeBackendFactory.client(
                new GkeEndpoint(
                    GkeEndpoint.serverUrl(cluster.url()), cluster.caCertificateBase64()),
                tokens)) {
      client.getKubernetesVersion();
      client.pods().inNamespace("nlp-jobs").list();
      assertThat(cluster.authorizations())
          .containsExactly("Bearer ya29.fake-1", "Bearer ya29.fake-1");

      clock.advance(Duration.ofMinutes(56));
      client.getKubernetesVersion();
      client.pods().inNamespace("nlp-jobs").list();

      assertThat(cluster.authorizations())
          .containsExactly(
              "Bearer ya29.fake-1",
              "Bearer ya29.fake-1",
              "Bearer ya29.fake-2",
              "Bearer ya29.fake-2");
      assertThat(google.issued()).isEqualTo(2);
    }
  }

  @Test
  void aRevokedKeyIsACredentialFailureNamingGooglesWordsAndNoToken() {
    tokens.getToken();
    google.revokeKey();
    clock.advance(Duration.ofHours(1));

    assertThatThrownBy(tokens::getToken)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401))
        .hasMessageContaining("gke-test: Google refused the credentials (400 invalid_grant")
        .hasMessageContaining("Invalid JWT Signature.")
        .hasNoCause();
  }

  @Test
  void anUnreachableTokenEndpointIsRetryable() {
    google.close();

    assertThatThrownBy(tokens::getToken)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isZero())
        .hasMessageStartingWith("gke-test: cannot get a Google access token (");
  }
}
