package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.gateway.algorithms.Algorithm;
import io.trainyard.gateway.algorithms.AlgorithmDefinition;
import io.trainyard.gateway.algorithms.AlgorithmVersion;
import java.time.Instant;
import java.util.List;

/**
 * An algorithm as the API shows it; {@code versions} only when one algorithm is asked for.
 *
 * @param name {@code team/name}, as a job's {@code spec.algorithm} names it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AlgorithmView(
    String name,
    String team,
    String description,
    String visibility,
    Integer defaultVersion,
    String createdBy,
    Instant createdAt,
    Instant updatedAt,
    List<Version> versions) {

  /** One published version. */
  public record Version(
      int version,
      String reference,
      String status,
      boolean isDefault,
      String publishedBy,
      Instant publishedAt,
      AlgorithmDefinition definition) {
    public static Version of(AlgorithmVersion v, Integer defaultVersion) {
      return new Version(
          v.version(),
          v.reference(),
          v.status().wireName(),
          defaultVersion != null && defaultVersion == v.version(),
          v.publishedBy(),
          v.publishedAt(),
          v.definition());
    }
  }

  public static AlgorithmView of(Algorithm a, List<AlgorithmVersion> versions) {
    return new AlgorithmView(
        a.qualifiedName(),
        a.team(),
        a.description(),
        a.visibility().wireName(),
        a.defaultVersion(),
        a.createdBy(),
        a.createdAt(),
        a.updatedAt(),
        versions == null
            ? null
            : versions.stream().map(v -> Version.of(v, a.defaultVersion())).toList());
  }
}
