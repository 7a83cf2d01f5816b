package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * The job's name (a DNS-1123 label, unique among the team's live jobs), its team (needed only when
 * the caller belongs to several) and free-form labels.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ObjectMeta(String name, String team, Map<String, String> labels) {
  public ObjectMeta {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }
}
