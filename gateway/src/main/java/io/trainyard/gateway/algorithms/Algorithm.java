package io.trainyard.gateway.algorithms;

import java.time.Instant;
import java.util.Objects;

/**
 * A registered algorithm: a team's name for training code, who may run it, and which published
 * version a job gets when it names none.
 *
 * @param defaultVersion null until a version is published
 */
public record Algorithm(
    String team,
    String name,
    String description,
    Visibility visibility,
    Integer defaultVersion,
    String createdBy,
    Instant createdAt,
    Instant updatedAt) {
  public Algorithm {
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(visibility, "visibility");
  }

  /** {@code team/name}, as references and audit resources spell it. */
  public String qualifiedName() {
    return team + "/" + name;
  }

  /** Whether a job of {@code team} may run it. */
  public boolean visibleTo(String otherTeam) {
    return visibility == Visibility.EVERYONE || team.equals(otherTeam);
  }
}
