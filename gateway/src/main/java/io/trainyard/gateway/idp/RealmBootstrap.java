package io.trainyard.gateway.idp;

import io.trainyard.auth.Role;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.keycloak.admin.client.CreatedResponseUtil;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.representations.idm.CredentialRepresentation;
import org.keycloak.representations.idm.GroupRepresentation;
import org.keycloak.representations.idm.RealmRepresentation;
import org.keycloak.representations.idm.RoleRepresentation;
import org.keycloak.representations.idm.UserRepresentation;

/**
 * Makes a Keycloak realm ready for Trainyard, idempotently: the realm, the realm roles, one group
 * per team, the clients ({@link ClientBootstrap}) and, on request, demo users. Whatever exists is
 * left as it is, except the settings Trainyard depends on (client flags, token mappers), which are
 * put back when they differ. A second run with the same plan changes nothing and says so.
 *
 * <p>Group attributes are written when a group is created and not touched afterwards: from then on
 * they are the operator's overrides (see {@link TeamAttributes}). Demo users' passwords are set
 * only when the user is created.
 */
public final class RealmBootstrap {
  /** The demo users: name → realm role; each joins the first team. */
  private static final Map<String, Role> DEMO_USERS =
      Map.of(
          "demo-trainer", Role.TRAINER,
          "demo-team-admin", Role.TEAM_ADMIN,
          "demo-auditor", Role.AUDITOR,
          "demo-platform-admin", Role.PLATFORM_ADMIN);

  private final Keycloak keycloak;

  /**
   * @param keycloak a connection with the rights to create realms (an admin of {@code master})
   */
  public RealmBootstrap(Keycloak keycloak) {
    this.keycloak = keycloak;
  }

  public BootstrapReport run(BootstrapPlan plan) {
    var report = new BootstrapReport();
    var realm = ensureRealm(plan.realm(), report);
    ensureRoles(realm, report);
    ensureGroups(realm, plan, report);
    new ClientBootstrap(realm, plan, report).run();
    if (plan.demoPassword() != null) {
      ensureDemoUsers(realm, plan, report);
    }
    return report;
  }

  private RealmResource ensureRealm(String name, BootstrapReport report) {
    var realm = keycloak.realm(name);
    try {
      realm.toRepresentation();
      report.unchanged("realm " + name, null);
    } catch (NotFoundException e) {
      var representation = new RealmRepresentation();
      representation.setRealm(name);
      representation.setEnabled(true);
      keycloak.realms().create(representation);
      report.created("realm " + name, null);
    }
    return realm;
  }

  private static void ensureRoles(RealmResource realm, BootstrapReport report) {
    for (Role role : Role.values()) {
      var name = role.realmRoleName();
      try {
        realm.roles().get(name).toRepresentation();
        report.unchanged("realm role " + name, null);
      } catch (NotFoundException e) {
        var representation = new RoleRepresentation();
        representation.setName(name);
        representation.setDescription("Trainyard: " + describe(role));
        realm.roles().create(representation);
        report.created("realm role " + name, null);
      }
    }
  }

  private static String describe(Role role) {
    return switch (role) {
      case TRAINER -> "submits and sees the jobs of their own teams";
      case TEAM_ADMIN -> "also sees their teams' spend and settings";
      case AUDITOR -> "reads and exports the audit log, nothing else";
      case PLATFORM_ADMIN -> "sees every team";
    };
  }

  private static void ensureGroups(
      RealmResource realm, BootstrapPlan plan, BootstrapReport report) {
    for (String team : plan.teamNames()) {
      var what = "group " + team;
      var existing = topLevelGroup(realm, team);
      if (existing.isEmpty()) {
        var group = new GroupRepresentation();
        group.setName(team);
        group.setAttributes(TeamAttributes.of(plan.teams().get(team)));
        created(realm.groups().add(group), what);
        report.created(what, "attributes " + group.getAttributes().keySet());
        continue;
      }
      var group = existing.get();
      if (TeamAttributes.isTeam(group.getAttributes())) {
        report.unchanged(what, "attributes left as they are: they override the config");
        continue;
      }
      // A group that predates Trainyard: mark it, keep whatever else it holds.
      var attributes = new java.util.HashMap<String, List<String>>();
      if (group.getAttributes() != null) {
        attributes.putAll(group.getAttributes());
      }
      attributes.put(TeamAttributes.MARKER, List.of("true"));
      group.setAttributes(attributes);
      realm.groups().group(group.getId()).update(group);
      report.updated(what, "marked as a team");
    }
  }

  /** The top-level group of that exact name, with its attributes. */
  static Optional<GroupRepresentation> topLevelGroup(RealmResource realm, String name) {
    // The search also returns parents of matching subgroups; only "/name" is the team's group.
    return realm.groups().groups(name, true, 0, 100, false).stream()
        .filter(g -> name.equals(g.getName()) && ("/" + name).equals(g.getPath()))
        .findFirst();
  }

  private static void ensureDemoUsers(
      RealmResource realm, BootstrapPlan plan, BootstrapReport report) {
    var firstTeam = plan.teamNames().iterator();
    var team = firstTeam.hasNext() ? firstTeam.next() : null;
    for (var entry : new java.util.TreeMap<>(DEMO_USERS).entrySet()) {
      var name = entry.getKey();
      var what = "demo user " + name;
      if (!realm.users().searchByUsername(name, true).isEmpty()) {
        report.unchanged(what, "password left as it is");
        continue;
      }
      var user = new UserRepresentation();
      user.setUsername(name);
      user.setEnabled(true);
      // Keycloak's user profile asks for these before the first login otherwise.
      user.setEmail(name + "@example.com");
      user.setEmailVerified(true);
      user.setFirstName("Demo");
      user.setLastName(name.substring("demo-".length()));
      var password = new CredentialRepresentation();
      password.setType(CredentialRepresentation.PASSWORD);
      password.setValue(plan.demoPassword());
      password.setTemporary(false);
      user.setCredentials(List.of(password));
      if (team != null && entry.getValue() != Role.AUDITOR) {
        user.setGroups(List.of("/" + team));
      }
      var id = created(realm.users().create(user), what);
      var role = realm.roles().get(entry.getValue().realmRoleName()).toRepresentation();
      realm.users().get(id).roles().realmLevel().add(new ArrayList<>(List.of(role)));
      report.created(what, entry.getValue().realmRoleName() + (team == null ? "" : ", " + team));
    }
  }

  /** The new object's id, after checking Keycloak created it. */
  static String created(Response response, String what) {
    try (response) {
      if (response.getStatus() != 201) {
        throw new IllegalStateException(
            "Keycloak refused to create " + what + ": HTTP " + response.getStatus());
      }
      return CreatedResponseUtil.getCreatedId(response);
    }
  }
}
