package io.trainyard.gateway.idp;

import static io.trainyard.gateway.idp.OidcGateway.sleeper;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real Keycloak tokens (password grant for people, client credentials for a CI pipeline) against a
 * real gateway, over every endpoint: who may do what to the jobs of which team. The gateway knows
 * the teams nlp and vision from its config; Keycloak's other groups (speech, marketing) are not
 * teams to it.
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
class KeycloakRoleMatrixIT {
  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(() -> KeycloakExtension.realm().issuer());

  private static final Map<String, String> TOKENS = new LinkedHashMap<>();
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static GatewayClient client;
  private static String nlpJob;

  @BeforeAll
  static void tokensAndAJob(TestRealm realm) {
    client = new GatewayClient(APP.getLocalPort());
    for (var user : List.of("alice", "bob", "carol", "frank", "dave", "erin", "gina", "mallory")) {
      TOKENS.put(user, realm.passwordToken(user));
    }
    TOKENS.put("ci", realm.serviceAccountToken());
    TOKENS.put("nobody", null);
    nlpJob = submit("alice", "nlp", 600);
  }

  private static String submit(String user, String team, int seconds) {
    var answer =
        client.post(
            "/v1/jobs",
            TOKENS.get(user),
            "application/yaml",
            sleeper("job-" + NAMES.incrementAndGet(), team, seconds));
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  enum Call {
    LIST,
    SUBMIT,
    GET,
    CANCEL,
    LOGS,
    EVENTS,
    QUOTE,
    BACKENDS
  }

  private static final Map<String, int[]> EXPECTED = new LinkedHashMap<>();

  static {
    // LIST SUBMIT GET CANCEL LOGS EVENTS QUOTE BACKENDS, for nlp's job
    // The jobs cancelled are alice's: she and nlp's team-admin frank may; teammates may not.
    EXPECTED.put("alice", new int[] {200, 201, 200, 202, 200, 200, 200, 200});
    EXPECTED.put("frank", new int[] {200, 201, 200, 202, 200, 200, 200, 200});
    EXPECTED.put("ci", new int[] {200, 201, 200, 403, 200, 200, 200, 200});
    // In nlp and vision: must name the team (422 without), sees nlp's jobs.
    EXPECTED.put("carol", new int[] {200, 422, 200, 403, 200, 200, 422, 200});
    // Another team's job does not exist for bob.
    EXPECTED.put("bob", new int[] {200, 201, 404, 404, 404, 404, 200, 200});
    // Every team's jobs, but in no team to submit for.
    EXPECTED.put("erin", new int[] {200, 403, 200, 202, 200, 200, 403, 200});
    // Groups the gateway does not know as teams are no teams.
    EXPECTED.put("gina", new int[] {200, 403, 404, 404, 404, 404, 403, 200});
    EXPECTED.put("mallory", new int[] {200, 403, 404, 404, 404, 404, 403, 200});
    // The audit log, and every team's job list to read (issue 17); nothing else.
    EXPECTED.put("dave", new int[] {200, 403, 403, 403, 403, 403, 403, 403});
    EXPECTED.put("nobody", new int[] {401, 401, 401, 401, 401, 401, 401, 401});
  }

  static Stream<Arguments> matrix() {
    return EXPECTED.entrySet().stream()
        .flatMap(
            e ->
                Stream.of(Call.values())
                    .map(call -> Arguments.of(e.getKey(), call, e.getValue()[call.ordinal()])));
  }

  @ParameterizedTest(name = "{0} {1} → {2}")
  @MethodSource("matrix")
  void everyRoleAndTeamOnEveryEndpoint(String user, Call call, int expected) {
    var token = TOKENS.get(user);
    var answer =
        switch (call) {
          case LIST -> client.get("/v1/jobs", token);
          case SUBMIT ->
              client.post(
                  "/v1/jobs",
                  token,
                  "application/yaml",
                  sleeper("m-" + NAMES.incrementAndGet(), null, 0));
          case GET -> client.get("/v1/jobs/" + nlpJob, token);
          // Each cancel gets a job of its own, so that the others still have a live one to see.
          case CANCEL -> client.delete("/v1/jobs/" + submit("alice", null, 600), token);
          case LOGS -> client.get("/v1/jobs/" + nlpJob + "/logs", token);
          case EVENTS -> client.get("/v1/jobs/" + nlpJob + "/events", token);
          case QUOTE -> client.post("/v1/quotes", token, "application/yaml", sleeper("q", null, 0));
          case BACKENDS -> client.get("/v1/backends", token);
        };
    assertThat(answer.status()).as(answer.body()).isEqualTo(expected);
    if (call == Call.LIST && expected == 200) {
      boolean seesNlp = List.of("alice", "frank", "ci", "carol", "erin", "dave").contains(user);
      assertThat(answer.body().contains(nlpJob)).as(answer.body()).isEqualTo(seesNlp);
    }
  }

  @Test
  void aUserInTwoTeamsSubmitsToTheOneTheyName() {
    var answer =
        client.post(
            "/v1/jobs", TOKENS.get("carol"), "application/yaml", sleeper("carols", "vision", 0));

    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().get("team").asText()).isEqualTo("vision");
    var elsewhere =
        client.post("/v1/jobs", TOKENS.get("bob"), "application/yaml", sleeper("bobs", "nlp", 0));
    assertThat(elsewhere.status()).isEqualTo(422);
    assertThat(elsewhere.body()).contains("not a member of team nlp");
  }

  @Test
  void aServiceAccountSubmitsForItsTeamUnderItsOwnName() {
    var answer =
        client.post("/v1/jobs", TOKENS.get("ci"), "application/yaml", sleeper("ci-run", null, 0));

    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().get("team").asText()).isEqualTo("nlp");
    assertThat(answer.json().get("owner").asText()).isEqualTo("service-account-ci-pipeline");
    var seenByAlice =
        client.get("/v1/jobs/" + answer.json().get("id").asText(), TOKENS.get("alice"));
    assertThat(seenByAlice.status()).isEqualTo(200);
  }

  @Test
  void theAuditorIsRefusedWithTheRolesNamedAndNoJobData() {
    var answer = client.get("/v1/jobs/" + nlpJob, TOKENS.get("dave"));

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.json().get("code").asText()).isEqualTo("FORBIDDEN");
    assertThat(answer.body()).doesNotContain("sleep").doesNotContain("alice");
  }
}
