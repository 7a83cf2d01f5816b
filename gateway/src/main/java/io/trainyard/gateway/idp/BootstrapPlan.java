package io.trainyard.gateway.idp;

import io.trainyard.gateway.config.TeamConfig;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What {@code bootstrap-idp} makes sure exists in a Keycloak realm.
 *
 * @param realm created if missing
 * @param apiClientId the gateway's client, whose id is the audience tokens must carry
 * @param cliClientId the public client of the CLI and browsers (PKCE, device grant)
 * @param groupsClaim the claim the groups mapper writes; the gateway's {@code auth.teamsClaim}
 * @param teams one group per team, created with the team's settings as attributes
 * @param passwordGrant turn on the resource-owner password grant for the CLI client; false leaves
 *     an existing client as it is (a new one gets it off)
 * @param apiClientSecret the secret to give the gateway's client, or null to let Keycloak pick one
 * @param demoPassword the password of the demo users, or null for none
 * @param dashboardUrl where browsers reach the gateway's dashboard ({@code gateway.publicUrl}, else
 *     its loopback address): the public client's redirect URI ({@code /callback}), web origin and
 *     post-logout redirect; null for none
 */
public record BootstrapPlan(
    String realm,
    String apiClientId,
    String cliClientId,
    String groupsClaim,
    Map<String, TeamConfig> teams,
    boolean passwordGrant,
    String apiClientSecret,
    String demoPassword,
    String dashboardUrl) {

  public BootstrapPlan {
    Objects.requireNonNull(realm, "realm");
    Objects.requireNonNull(apiClientId, "apiClientId");
    Objects.requireNonNull(cliClientId, "cliClientId");
    Objects.requireNonNull(groupsClaim, "groupsClaim");
    // Sorted, so that two runs report in the same order.
    teams = Map.copyOf(new TreeMap<>(Objects.requireNonNull(teams, "teams")));
  }

  /** The sorted team names. */
  public Iterable<String> teamNames() {
    return new TreeMap<>(teams).keySet();
  }

  @Override
  public String toString() {
    // Never the secrets, whoever prints a plan.
    return "BootstrapPlan{realm="
        + realm
        + ", apiClientId="
        + apiClientId
        + ", cliClientId="
        + cliClientId
        + ", teams="
        + teams.keySet()
        + ", passwordGrant="
        + passwordGrant
        + ", demoUsers="
        + (demoPassword != null)
        + "}";
  }
}
