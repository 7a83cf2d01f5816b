package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Pod-template fields that only Kubernetes can honour (nodeSelector, tolerations, imagePullSecrets,
 * volumes ...), kept as the document's own tree. Present → managed backends reject the job.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record KubernetesOptions(Map<String, Object> podTemplate) {
  public KubernetesOptions {
    podTemplate = podTemplate == null ? Map.of() : copy(podTemplate);
  }

  private static Map<String, Object> copy(Map<String, Object> tree) {
    // Jackson may hand us nulls inside the tree, which Map.copyOf refuses.
    return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tree));
  }
}
