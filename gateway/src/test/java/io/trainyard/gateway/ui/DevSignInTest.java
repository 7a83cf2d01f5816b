package io.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.errors.ApiException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dev issuer's browser sign-in: the one-time code, the redirect rule, PKCE, refresh. */
class DevSignInTest {
  private static final String VERIFIER = "a".repeat(43) + "-verifier._~";
  private static final String REDIRECT = "http://127.0.0.1:8080/callback";
  private final List<String> printed = new ArrayList<>();
  private DevSignIn signIn;

  @BeforeEach
  void setUp() throws Exception {
    var issuer = DevIssuer.loadOrCreate(Files.createTempDirectory("dev-signin"), "http://i");
    signIn = new DevSignIn(issuer, "trainyard-ui", printed::add, Clock.systemUTC());
    signIn.announce();
  }

  private DevSignIn.Request request() {
    return signIn.check(
        "code", "trainyard-ui", REDIRECT, "st", DevSignIn.s256(VERIFIER), "S256", 8080);
  }

  private static DevSignIn.Identity alice() {
    return new DevSignIn.Identity("alice", Set.of("nlp"), Set.of("trainer"));
  }

  private static String codeOf(java.net.URI redirect) {
    var query = redirect.getQuery();
    return query.substring("code=".length(), query.indexOf('&'));
  }

  @Test
  void theRightCodeSignsInOnceAndIsReplaced() {
    var first = printed.get(0);
    var back = signIn.authorize(request(), first, alice());
    assertThat(back.toString()).startsWith(REDIRECT + "?code=").endsWith("&state=st");
    assertThat(printed).hasSize(2);
    assertThat(printed.get(1)).isNotEqualTo(first);
    assertThatThrownBy(() -> signIn.authorize(request(), first, alice()))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("one_time_code");
  }

  @Test
  void noCodeIsGivenWhenTheSignInCannotBeAudited() {
    var first = printed.get(0);
    assertThatThrownBy(
            () ->
                signIn.authorize(
                    request(),
                    first,
                    alice(),
                    () -> {
                      throw new IllegalStateException("audit down");
                    }))
        .hasMessage("audit down");
    // The one-time code is spent all the same.
    assertThat(printed).hasSize(2);
  }

  @Test
  void fiveWrongCodesReplaceIt() {
    var code = printed.get(0);
    for (int i = 0; i < DevSignIn.MAX_WRONG_GUESSES; i++) {
      assertThatThrownBy(() -> signIn.authorize(request(), "guess", alice()))
          .isInstanceOf(ApiException.class);
    }
    assertThat(printed).hasSize(2);
    assertThatThrownBy(() -> signIn.authorize(request(), code, alice()))
        .isInstanceOf(ApiException.class);
  }

  @Test
  void redirectsOnlyToTheDashboardOnThisLoopbackPort() {
    var challenge = DevSignIn.s256(VERIFIER);
    for (var uri :
        List.of(
            "http://evil.example/callback",
            "http://127.0.0.1:9999/callback",
            "http://127.0.0.1:8080/elsewhere",
            "https://127.0.0.1:8080/callback",
            "http://127.0.0.1:8080/callback?x=1")) {
      assertThatThrownBy(
              () -> signIn.check("code", "trainyard-ui", uri, "s", challenge, "S256", 8080))
          .as(uri)
          .isInstanceOf(ApiException.class)
          .hasMessageContaining("redirect_uri");
    }
    assertThatThrownBy(
            () -> signIn.check("code", "trainyard-ui", REDIRECT, "s", challenge, "plain", 8080))
        .hasMessageContaining("code_challenge_method");
    assertThatThrownBy(() -> signIn.check("code", "other", REDIRECT, "s", challenge, "S256", 8080))
        .hasMessageContaining("client_id");
  }

  @Test
  void theCodeNeedsTheVerifierAndWorksOnce() {
    var code = codeOf(signIn.authorize(request(), printed.get(0), alice()));
    assertThatThrownBy(() -> signIn.redeem(code, "trainyard-ui", REDIRECT, "b".repeat(43)))
        .hasMessageContaining("code_verifier");
    // A failed redemption spends the code too: a guessed verifier gets one try.
    assertThatThrownBy(() -> signIn.redeem(code, "trainyard-ui", REDIRECT, VERIFIER))
        .hasMessageContaining("code");

    var second = codeOf(signIn.authorize(request(), printed.get(1), alice()));
    var tokens = signIn.redeem(second, "trainyard-ui", REDIRECT, VERIFIER);
    assertThat(tokens.accessToken()).isNotBlank();
    assertThat(tokens.toJson()).containsEntry("token_type", "Bearer");
    assertThatThrownBy(() -> signIn.redeem(second, "trainyard-ui", REDIRECT, VERIFIER))
        .hasMessageContaining("code");
  }

  @Test
  void refreshTokensAreRotated() {
    var code = codeOf(signIn.authorize(request(), printed.get(0), alice()));
    var tokens = signIn.redeem(code, "trainyard-ui", REDIRECT, VERIFIER);
    var next = signIn.refresh(tokens.refreshToken(), "trainyard-ui");
    assertThat(next.refreshToken()).isNotEqualTo(tokens.refreshToken());
    assertThatThrownBy(() -> signIn.refresh(tokens.refreshToken(), "trainyard-ui"))
        .hasMessageContaining("refresh_token");
  }
}
