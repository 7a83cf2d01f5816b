package io.trainyard.gateway.idp;

import static io.trainyard.gateway.idp.OidcGateway.sleeper;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.keycloak.admin.client.resource.RealmResource;

/**
 * Teams from Keycloak group attributes (auth.keycloakAdmin), read with the gateway client's own
 * service account: a group marked as a team that the config does not name becomes a team, and an
 * attribute on a configured team's group overrides that setting — while the gateway runs.
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
class KeycloakTeamAttributesIT {
  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(
          () -> KeycloakExtension.realm().issuer(),
          """
            keycloakAdmin:
              clientSecret: %s
              refreshInterval: 1s
          """
              .formatted(TestRealm.GATEWAY_SECRET));

  private static GatewayClient client;
  private static TestRealm realm;
  private static RealmResource admin;

  @BeforeAll
  static void connect(TestRealm testRealm, KeycloakExtension.Server server) {
    realm = testRealm;
    client = new GatewayClient(APP.getLocalPort());
    admin = server.admin().realm(realm.name());
  }

  @AfterAll
  static void restoreVision() {
    setAttribute("vision", TeamAttributes.REGIONS, null);
    setAttribute("vision", TeamAttributes.BUDGET, null);
  }

  @Test
  void aGroupMarkedAsATeamInKeycloakIsATeam() {
    var gina = realm.passwordToken("gina");

    var answer =
        await(
            () -> client.post("/v1/jobs", gina, "application/yaml", sleeper("speechy", null, 0)),
            a -> a.status() == 201);
    assertThat(answer.json().get("team").asText()).isEqualTo("speech");
    // An unmarked group stays no team.
    var mallory = realm.passwordToken("mallory");
    assertThat(
            client.post("/v1/quotes", mallory, "application/yaml", sleeper("m", null, 0)).status())
        .isEqualTo(403);
  }

  @Test
  void anAttributeOverridesTheConfiguredSettingUntilItIsRemoved() {
    var bob = realm.passwordToken("bob");
    Supplier<String> chosen =
        () -> {
          var quote = client.post("/v1/quotes", bob, "application/yaml", sleeper("v", null, 0));
          assertThat(quote.status()).as(quote.body()).isEqualTo(200);
          return quote.json().get("chosen").asText("none: " + quote.body());
        };
    assertThat(chosen.get()).isEqualTo("local");

    // The config lets vision run anywhere; Keycloak now says it must stay on Mars.
    setAttribute("vision", TeamAttributes.REGIONS, List.of("mars-1"));
    assertThat(await(chosen, c -> c.startsWith("none")))
        .contains("outside team vision's residency");

    // A value the gateway cannot read is ignored, not fatal.
    setAttribute("vision", TeamAttributes.BUDGET, List.of("lots"));
    setAttribute("vision", TeamAttributes.REGIONS, null);
    assertThat(await(chosen, "local"::equals)).isEqualTo("local");
  }

  private static void setAttribute(String group, String name, List<String> values) {
    var found = RealmBootstrap.topLevelGroup(admin, group).orElseThrow();
    var attributes = new HashMap<>(found.getAttributes());
    if (values == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, values);
    }
    found.setAttributes(attributes);
    admin.groups().group(found.getId()).update(found);
  }

  /** The gateway reads groups every second: poll until the answer is the wanted one. */
  private static <T> T await(Supplier<T> call, Predicate<T> wanted) {
    var deadline = Instant.now().plus(Duration.ofSeconds(20));
    T answer;
    do {
      answer = call.get();
      if (wanted.test(answer)) {
        return answer;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    } while (Instant.now().isBefore(deadline));
    throw new AssertionError("still " + answer);
  }
}
