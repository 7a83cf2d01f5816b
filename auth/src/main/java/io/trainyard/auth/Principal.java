package io.trainyard.auth;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who is calling, as established by a verified token. Immutable and thread-safe.
 *
 * @param subject the token's {@code sub}, stable across renames; what ownership is keyed on
 * @param username the human-readable name ({@code preferred_username}, else the subject)
 * @param email the token's {@code email}, or null
 * @param teams the caller's groups that the gateway knows as teams, sorted
 * @param roles the caller's realm roles that the gateway knows
 * @param client the OAuth client the token was issued to ({@code azp}), or null
 * @param serviceAccount whether the caller is a client acting for itself (OAuth client credentials,
 *     e.g. a CI pipeline) rather than a person; it is authorized like a user, by its realm roles
 *     and groups
 */
public record Principal(
    String subject,
    String username,
    String email,
    Set<String> teams,
    Set<Role> roles,
    String client,
    boolean serviceAccount) {

  public Principal {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(username, "username");
    // Sorted copies so that messages listing a caller's teams read the same every time.
    teams =
        Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(teams, "teams")));
    var roleCopy = EnumSet.noneOf(Role.class);
    roleCopy.addAll(Objects.requireNonNull(roles, "roles"));
    roles = Collections.unmodifiableSet(roleCopy);
  }

  /** A person's principal. */
  public Principal(
      String subject,
      String username,
      String email,
      Set<String> teams,
      Set<Role> roles,
      String client) {
    this(subject, username, email, teams, roles, client, false);
  }

  public boolean has(Role role) {
    return roles.contains(role);
  }

  public boolean isPlatformAdmin() {
    return has(Role.PLATFORM_ADMIN);
  }
}
