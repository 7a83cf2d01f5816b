package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code trainyard login} and the cached token, in-process against an IdP that speaks OIDC
 * discovery, the device grant and the token endpoint over loopback HTTP (and a gateway beside it).
 */
class LoginTest {
  private static final String REALM = "/realms/training";

  @TempDir Path workDir;
  @TempDir Path configDir;

  private FakeGateway idp;
  private FakeGateway gateway;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();
  private String stdin = "";

  @BeforeEach
  void start() throws IOException {
    idp = new FakeGateway();
    gateway = new FakeGateway();
    gateway.answer("GET", "/v1/jobs", 200, "{\"jobs\":[]}");
    idp.answer(
        "GET",
        REALM + "/.well-known/openid-configuration",
        200,
        """
        {"issuer":"%1$s","token_endpoint":"%1$s/protocol/openid-connect/token",
         "device_authorization_endpoint":"%1$s/protocol/openid-connect/auth/device"}
        """
            .formatted(issuer()));
    env.put("TRAINYARD_URL", gateway.url());
    env.put("TRAINYARD_CONFIG_DIR", configDir.toString());
    env.put("TRAINYARD_ISSUER", issuer());
  }

  @AfterEach
  void stop() {
    idp.close();
    gateway.close();
  }

  private String issuer() {
    return idp.url() + REALM;
  }

  private int run(String... args) {
    return TrainyardCli.run(args, terminal());
  }

  private Terminal terminal() {
    return new Terminal(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        env,
        workDir,
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
  }

  private String output() {
    return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
  }

  static String accessToken(String user) {
    var encoder = Base64.getUrlEncoder().withoutPadding();
    return encoder.encodeToString("{\"alg\":\"RS256\"}".getBytes())
        + "."
        + encoder.encodeToString(("{\"preferred_username\":\"" + user + "\"}").getBytes())
        + ".c2lnbmF0dXJl";
  }

  private void tokens(String access, String refresh, int expiresIn) {
    idp.answer(
        "POST",
        REALM + "/protocol/openid-connect/token",
        200,
        tokenJson(access, refresh, expiresIn));
  }

  private static String tokenJson(String access, String refresh, int expiresIn) {
    return """
        {"access_token":"%s","refresh_token":"%s","expires_in":%d,"refresh_expires_in":1800,
         "token_type":"Bearer"}
        """
        .formatted(access, refresh, expiresIn);
  }

  private Map<String, String> form(FakeGateway.Request request) {
    var form = new HashMap<String, String>();
    for (var pair : request.bodyText().split("&")) {
      var kv = pair.split("=", 2);
      form.put(
          java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
          java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    return form;
  }

  private FakeGateway.Request lastTokenRequest() {
    return idp.requests().stream()
        .filter(r -> r.path().endsWith("/token"))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  @Test
  void thePasswordGrantCachesTheTokensOwnerOnlyAndLaterCommandsUseThem() throws IOException {
    tokens(accessToken("alice"), "refresh-1", 300);
    stdin = "s3cret-pw\n";
    env.put("TRAINYARD_CLIENT_ID", "my-cli");

    int exit = run("login", "--password", "--user", "alice");

    assertThat(exit).as(output()).isZero();
    assertThat(output())
        .contains("Logged in to " + issuer() + " as alice")
        .doesNotContain("s3cret-pw");
    var sent = form(lastTokenRequest());
    assertThat(sent)
        .containsEntry("grant_type", "password")
        .containsEntry("client_id", "my-cli")
        .containsEntry("username", "alice")
        .containsEntry("password", "s3cret-pw");
    var file = configDir.resolve("token.json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    var cached = new ObjectMapper().readTree(Files.readString(file));
    assertThat(cached.get("refreshToken").asText()).isEqualTo("refresh-1");
    assertThat(cached.get("clientId").asText()).isEqualTo("my-cli");
    try (var leftovers = Files.list(configDir)) {
      assertThat(leftovers).containsExactly(file);
    }

    assertThat(run("status")).isZero();
    assertThat(gateway.lastRequest().header("Authorization"))
        .isEqualTo("Bearer " + accessToken("alice"));
  }

  @Test
  void aTokenFromTheEnvironmentWinsOverTheCachedLogin() {
    tokens(accessToken("alice"), "refresh-1", 300);
    env.put("TRAINYARD_PASSWORD", "pw");
    assertThat(run("login", "--password", "--user", "alice")).isZero();

    env.put("TRAINYARD_TOKEN", "explicit-token");
    assertThat(run("status")).isZero();

    assertThat(gateway.lastRequest().header("Authorization")).isEqualTo("Bearer explicit-token");
  }

  @Test
  void anExpiredTokenIsRefreshedBeforeTheCallAndTheCacheRewritten() throws IOException {
    // Answered in turn: the login, then the refresh. 10 s is within the margin: refreshed at once.
    tokens(accessToken("alice"), "refresh-1", 10);
    tokens(accessToken("alice-2"), "refresh-2", 300);
    env.put("TRAINYARD_PASSWORD", "pw");
    assertThat(run("login", "--password", "--user", "alice")).isZero();

    assertThat(run("status")).as(output()).isZero();

    assertThat(form(lastTokenRequest()))
        .containsEntry("grant_type", "refresh_token")
        .containsEntry("refresh_token", "refresh-1")
        .containsEntry("client_id", LoginCommand.DEFAULT_CLIENT);
    assertThat(gateway.lastRequest().header("Authorization"))
        .isEqualTo("Bearer " + accessToken("alice-2"));
    assertThat(Files.readString(configDir.resolve("token.json"))).contains("refresh-2");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(configDir.resolve("token.json"))))
        .isEqualTo("rw-------");
  }

  @Test
  void aRefreshTheIdpRefusesAsksForANewLogin() {
    tokens(accessToken("alice"), "refresh-1", 10);
    idp.answer(
        "POST",
        REALM + "/protocol/openid-connect/token",
        400,
        "{\"error\":\"invalid_grant\",\"error_description\":\"Session not active\"}");
    env.put("TRAINYARD_PASSWORD", "pw");
    assertThat(run("login", "--password", "--user", "alice")).isZero();

    assertThat(run("status")).as("exit status AUTH").isEqualTo(6);
    assertThat(output())
        .contains("your login to " + issuer() + " has expired; run `trainyard login`");
  }

  @Test
  void theDeviceLoginShowsTheCodeAndPollsPolitelyUntilApproved() {
    idp.answer(
        "POST",
        REALM + "/protocol/openid-connect/auth/device",
        200,
        """
        {"device_code":"dev-123","user_code":"WXYZ-1234","verification_uri":"%1$s/device",
         "verification_uri_complete":"%1$s/device?user_code=WXYZ-1234","expires_in":600,"interval":2}
        """
            .formatted(issuer()));
    var pending = "{\"error\":\"authorization_pending\"}";
    idp.answer("POST", REALM + "/protocol/openid-connect/token", 400, pending);
    idp.answer("POST", REALM + "/protocol/openid-connect/token", 400, "{\"error\":\"slow_down\"}");
    idp.answer("POST", REALM + "/protocol/openid-connect/token", 400, pending);
    tokens(accessToken("bob"), "refresh-b", 300);
    var slept = new ArrayList<Duration>();
    var login =
        new LoginCommand(
            terminal(), new IdpClient(new ObjectMapper()), Clock.systemUTC(), slept::add);

    int exit = login.login(CommandLine.parse(List.of("login"), env));

    assertThat(exit).isZero();
    assertThat(output())
        .contains(issuer() + "/device?user_code=WXYZ-1234")
        .contains("enter the code WXYZ-1234")
        .contains("as bob");
    assertThat(slept)
        .containsExactly(
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            Duration.ofSeconds(7),
            Duration.ofSeconds(7));
    var start =
        form(idp.requests().stream().filter(r -> r.path().endsWith("/device")).findFirst().get());
    var poll = form(lastTokenRequest());
    assertThat(poll)
        .containsEntry("grant_type", IdpClient.DEVICE_GRANT)
        .containsEntry("device_code", "dev-123");
    // PKCE: the poll proves it comes from whoever started the login.
    assertThat(start).containsEntry("code_challenge_method", "S256");
    assertThat(Pkce.challenge(poll.get("code_verifier"))).isEqualTo(start.get("code_challenge"));
    assertThat(configDir.resolve("token.json")).exists();
  }

  @Test
  void aDeclinedDeviceLoginFailsAndCachesNothing() {
    idp.answer(
        "POST",
        REALM + "/protocol/openid-connect/auth/device",
        200,
        "{\"device_code\":\"d\",\"user_code\":\"U\",\"verification_uri\":\"x\",\"interval\":0}");
    idp.answer(
        "POST", REALM + "/protocol/openid-connect/token", 400, "{\"error\":\"access_denied\"}");

    assertThat(run("login")).as("exit status AUTH").isEqualTo(6);
    assertThat(output()).contains("the login was declined");
    assertThat(configDir.resolve("token.json")).doesNotExist();
  }

  @Test
  void aRealmWithoutThePasswordGrantSaysToUseTheDeviceLogin() {
    idp.answer(
        "POST",
        REALM + "/protocol/openid-connect/token",
        400,
        "{\"error\":\"unauthorized_client\",\"error_description\":\"not allowed\"}");
    env.put("TRAINYARD_PASSWORD", "pw");

    assertThat(run("login", "--password", "--user", "alice")).isEqualTo(1);
    assertThat(output())
        .contains("does not allow the password grant")
        .contains("`trainyard login`");
  }

  @Test
  void theIssuerComesFromFlagsOrTheEnvironment() {
    env.remove("TRAINYARD_ISSUER");
    assertThat(run("login")).isEqualTo(2);
    assertThat(output()).contains("which IdP?");

    tokens(accessToken("carol"), "r", 300);
    env.put("TRAINYARD_PASSWORD", "pw");
    int exit =
        run("login", "--idp", idp.url(), "--realm", "training", "--password", "--user", "carol");
    assertThat(exit).as(output()).isZero();
    assertThat(output()).contains("as carol");
  }

  @Test
  void logoutForgetsTheLogin() {
    tokens(accessToken("alice"), "r", 300);
    env.put("TRAINYARD_PASSWORD", "pw");
    assertThat(run("login", "--password", "--user", "alice")).isZero();

    assertThat(run("logout")).isZero();
    assertThat(configDir.resolve("token.json")).doesNotExist();
    assertThat(run("status")).isZero();
    assertThat(gateway.lastRequest().header("Authorization")).isNull();
  }

  @Test
  void aWidenedCacheFileIsNarrowedBackOnRead() throws IOException {
    var cache = new TokenCache(configDir.resolve("token.json"));
    cache.save(
        new StoredLogin(
            issuer(),
            "c",
            issuer() + "/t",
            "alice",
            "tok",
            Instant.now().plusSeconds(600),
            null,
            null));
    Files.setPosixFilePermissions(cache.file(), PosixFilePermissions.fromString("rw-r--r--"));

    assertThat(cache.load()).isPresent();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.file())))
        .isEqualTo("rw-------");
  }
}
