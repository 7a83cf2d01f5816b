package io.trainyard.gateway.algorithms;

import java.time.Instant;
import java.util.Objects;

/** One published, immutable version of an algorithm, and where it stands. */
public record AlgorithmVersion(
    String team,
    String name,
    int version,
    AlgorithmDefinition definition,
    String definitionHash,
    VersionStatus status,
    String publishedBy,
    Instant publishedAt) {
  public AlgorithmVersion {
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(definitionHash, "definitionHash");
    Objects.requireNonNull(status, "status");
  }

  /** {@code team/name@version}: what a stored job keeps as its {@code spec.algorithm}. */
  public String reference() {
    return team + "/" + name + "@" + version;
  }
}
