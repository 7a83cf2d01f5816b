package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.DigestSigner;
import io.trainyard.auth.OidcKeySource;
import io.trainyard.auth.Role;
import io.trainyard.auth.TokenVerifier;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.representations.idm.RoleRepresentation;

/**
 * {@code java -jar trainyard.jar bootstrap-idp config.yml ...}, run as a process against the real
 * Keycloak, on a realm that does not exist yet: the first run creates everything, the second finds
 * everything and says so, and a third puts back a setting someone changed. Then the realm's tokens
 * are checked by the gateway's own verifier: the mappers and the verifier agree.
 */
@ExtendWith(KeycloakExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BootstrapIdpIT {
  private static final String REALM = "bootstrap-it";
  private static final String ADMIN_VAR = "IT_KEYCLOAK_ADMIN_PASSWORD";
  private static final String DEMO_VAR = "IT_DEMO_PASSWORD";
  private static final String DEMO_PASSWORD = "demo-Passw0rd-" + System.nanoTime();

  @TempDir static Path dir;
  private static KeycloakExtension.Server keycloak;
  private static Keycloak admin;
  private static Path config;

  @BeforeAll
  static void writeConfig(KeycloakExtension.Server server) throws IOException {
    keycloak = server;
    admin = server.admin();
    config = dir.resolve("trainyard.yml");
    // Outside dev mode the audit keys must be configured: the command's event needs them.
    DigestSigner.loadOrGenerate(dir);
    var hmacKey = new byte[32];
    new SecureRandom().nextBytes(hmacKey);
    Files.writeString(
        config,
        """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db"
        audit:
          signingKeyFile: %s/%s
          hmacKey: %s
        auth:
          mode: oidc
          issuer: %s/realms/%s
        teams:
          nlp: {backends: [local], monthlyBudgetUsd: 1500, regions: [local],
                namespaces: {onprem-a: nlp-jobs}}
          vision: {}
        backends:
          - type: local
        """
            .formatted(
                dir,
                dir,
                dir,
                DigestSigner.PRIVATE_KEY_FILE,
                Base64.getEncoder().encodeToString(hmacKey),
                server.url(),
                REALM));
  }

  /** The {@code idp.bootstrap} events the runs wrote into the gateway's audit log, oldest first. */
  private static List<Map<String, String>> bootstrapEvents() {
    return Jdbi.create("jdbc:h2:file:" + dir + "/db", "trainyard", "")
        .withHandle(
            h ->
                h.createQuery(
                        "SELECT actor_username, resource, details FROM audit_events"
                            + " WHERE action = 'idp.bootstrap' ORDER BY seq")
                    .map(
                        (rs, ctx) ->
                            Map.of(
                                "actor_username", rs.getString("actor_username"),
                                "resource", rs.getString("resource"),
                                "details", rs.getString("details")))
                    .list());
  }

  private static JavaProcess.Result bootstrap(
      Map<String, String> env, String stdin, String... extra) {
    var args = new ArrayList<>(List.of("bootstrap-idp", config.toString()));
    args.addAll(List.of(extra));
    return JavaProcess.run(TrainyardApplication.class.getName(), args, env, stdin, dir);
  }

  @Test
  @Order(1)
  void theFirstRunCreatesEverythingAndPrintsNoSecret() {
    var result =
        bootstrap(
            Map.of(ADMIN_VAR, keycloak.adminPassword(), DEMO_VAR, DEMO_PASSWORD),
            null,
            "--admin-password-env",
            ADMIN_VAR,
            "--allow-password-grant",
            "--demo-users",
            "--demo-password-env",
            DEMO_VAR);

    assertThat(result.exitCode()).as(result.all()).isZero();
    assertThat(result.stdout())
        .contains("realm bootstrap-it: created")
        .contains("realm role platform-admin: created")
        .contains("group nlp: created")
        .contains("client trainyard: created")
        .contains("client trainyard-cli: created")
        .contains("demo user demo-trainer: created")
        .contains("change(s) made in realm bootstrap-it");
    assertThat(result.all()).doesNotContain(keycloak.adminPassword()).doesNotContain(DEMO_PASSWORD);
    var events = bootstrapEvents();
    assertThat(events).hasSize(1);
    assertThat(events.get(0).get("actor_username")).isEqualTo("admin");
    assertThat(events.get(0).get("resource").toString()).endsWith("/realms/" + REALM);
    assertThat(events.get(0).get("details").toString())
        .contains("\"client trainyard-cli\":\"CREATED\"")
        .doesNotContain(DEMO_PASSWORD);
  }

  @Test
  @Order(2)
  void theSecondRunChangesNothingAndSaysSo() {
    // The admin password on stdin this time, as a person would pipe it.
    var result = bootstrap(Map.of(), keycloak.adminPassword() + "\n");

    assertThat(result.exitCode()).as(result.all()).isZero();
    assertThat(result.stdout())
        .contains("Nothing to change: realm bootstrap-it already has everything")
        .doesNotContain(": created")
        .doesNotContain(": updated");
    assertThat(result.all()).doesNotContain(keycloak.adminPassword());
    assertThat(bootstrapEvents()).hasSize(2); // an unchanged run is evidence too
  }

  @Test
  @Order(3)
  void whatItMadeIsThere() {
    var realm = admin.realm(REALM);
    var roles = realm.roles().list().stream().map(RoleRepresentation::getName).toList();
    assertThat(roles).contains("trainer", "team-admin", "auditor", "platform-admin");

    var nlp = RealmBootstrap.topLevelGroup(realm, "nlp").orElseThrow();
    assertThat(nlp.getAttributes())
        .containsEntry(TeamAttributes.MARKER, List.of("true"))
        .containsEntry(TeamAttributes.BACKENDS, List.of("local"))
        .containsEntry(TeamAttributes.BUDGET, List.of("1500"))
        .containsEntry(TeamAttributes.NAMESPACES, List.of("onprem-a=nlp-jobs"));
    assertThat(RealmBootstrap.topLevelGroup(realm, "vision")).isPresent();

    var cli = realm.clients().findByClientId("trainyard-cli").get(0);
    assertThat(cli.isPublicClient()).isTrue();
    assertThat(cli.getAttributes())
        .containsEntry("pkce.code.challenge.method", "S256")
        .containsEntry("oauth2.device.authorization.grant.enabled", "true");
    var api = realm.clients().findByClientId("trainyard").get(0);
    assertThat(api.isPublicClient()).isFalse();
    assertThat(api.isStandardFlowEnabled()).isFalse();
  }

  @Test
  @Order(4)
  void itsTokensPassTheGatewaysVerifierWithTeamsAndRoles() throws Exception {
    var realm = new RealmTokens(keycloak.url(), REALM);
    var keys = OidcKeySource.builder(realm.issuer()).build();
    var verifier =
        TokenVerifier.builder(keys, realm.issuer(), "trainyard", Set.of("nlp", "vision")).build();

    var trainer =
        verifier.verify(realm.passwordToken("trainyard-cli", "demo-trainer", DEMO_PASSWORD));
    assertThat(trainer.username()).isEqualTo("demo-trainer");
    assertThat(trainer.teams()).containsExactly("nlp");
    assertThat(trainer.roles()).containsExactly(Role.TRAINER);
    var auditor =
        verifier.verify(realm.passwordToken("trainyard-cli", "demo-auditor", DEMO_PASSWORD));
    assertThat(auditor.teams()).isEmpty();
    assertThat(auditor.roles()).containsExactly(Role.AUDITOR);

    // The device grant is open to the CLI client, with PKCE required.
    var deviceEndpoint = URI.create(realm.issuer() + "/protocol/openid-connect/auth/device");
    var withoutPkce = postForm(deviceEndpoint, "client_id=trainyard-cli");
    assertThat(withoutPkce.statusCode()).isEqualTo(400);
    assertThat(withoutPkce.body()).contains("code_challenge");
    var device =
        postForm(
            deviceEndpoint,
            "client_id=trainyard-cli&code_challenge_method=S256"
                + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    assertThat(device.statusCode()).as(device.body()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(device.body()).get("user_code").asText()).isNotBlank();
  }

  private static HttpResponse<String> postForm(URI uri, String form) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  @Order(5)
  void aChangedSettingIsPutBack() {
    var clients = admin.realm(REALM).clients();
    var cli = clients.findByClientId("trainyard-cli").get(0);
    cli.setDirectAccessGrantsEnabled(false);
    cli.getAttributes().put("pkce.code.challenge.method", "plain");
    clients.get(cli.getId()).update(cli);

    var result =
        bootstrap(
            Map.of(ADMIN_VAR, keycloak.adminPassword()),
            null,
            "--admin-password-env",
            ADMIN_VAR,
            "--allow-password-grant");

    assertThat(result.exitCode()).as(result.all()).isZero();
    assertThat(result.stdout())
        .contains(
            "client trainyard-cli: updated (set directAccessGrantsEnabled, pkce.code.challenge.method)")
        .contains("1 change(s) made");
  }

  @Test
  @Order(6)
  void aWrongAdminPasswordFailsInOneLine() {
    var result =
        bootstrap(Map.of(ADMIN_VAR, "not-the-password"), null, "--admin-password-env", ADMIN_VAR);

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("bootstrap-idp failed: Keycloak refused the admin login");
    assertThat(result.all()).doesNotContain("not-the-password").doesNotContain("\tat ");
  }

  @Test
  @Order(7)
  void withoutAWritableAuditLogTheRealmIsNotTouched() throws IOException {
    var unaudited = dir.resolve("no-audit-keys.yml");
    Files.writeString(
        unaudited, Files.readString(config).replaceAll("(?m)^audit:\\n(  .*\\n)+", ""));
    var args =
        new ArrayList<>(
            List.of("bootstrap-idp", unaudited.toString(), "--admin-password-env", ADMIN_VAR));
    var result =
        JavaProcess.run(
            TrainyardApplication.class.getName(),
            args,
            Map.of(ADMIN_VAR, keycloak.adminPassword()),
            null,
            dir);

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("audit.signingKeyFile is required");
    assertThat(result.stdout()).doesNotContain("Bootstrapping realm");
  }
}
