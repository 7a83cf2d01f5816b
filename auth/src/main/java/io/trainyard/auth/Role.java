package io.trainyard.auth;

import java.util.Optional;

/**
 * The realm roles the gateway understands. The names are the ones created in the IdP, so they are
 * part of the deployment contract and must not change.
 */
public enum Role {
  /** Submits jobs and sees the jobs of their own teams. */
  TRAINER("trainer"),
  /** Manages the jobs of their own teams. */
  TEAM_ADMIN("team-admin"),
  /** Reads and exports the audit trail. */
  AUDITOR("auditor"),
  /** Everything, across all teams. */
  PLATFORM_ADMIN("platform-admin");

  private final String realmRoleName;

  Role(String realmRoleName) {
    this.realmRoleName = realmRoleName;
  }

  /** The role's name as the IdP spells it in {@code realm_access.roles}. */
  public String realmRoleName() {
    return realmRoleName;
  }

  /**
   * The role with this realm-role name, or empty for a name the gateway does not know (Keycloak
   * adds its own, such as {@code offline_access}). Matching is exact: IdP role names are
   * case-sensitive.
   */
  public static Optional<Role> fromName(String name) {
    for (Role role : values()) {
      if (role.realmRoleName.equals(name)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }
}
