package io.trainyard.kubeflow;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Kubernetes backend adds to the pods of one role beyond what the spec says: the node
 * selector and tolerations of the node pool its placement chose, and files it hands the job (the
 * DeepSpeed config as a ConfigMap volume). Trees are Kubernetes' own field shapes, as in {@code
 * kubernetes.podTemplate}.
 *
 * <p>Merged into each rendered pod template after the spec's own fields: {@code nodeSelector} keys
 * replace the template's keys of the same name (the pool the job was placed on must win, or the
 * pods could not schedule there); {@code tolerations}, {@code volumes}, {@code volumeMounts} (of
 * the framework's container) and {@code env} (of that container) are appended, a toleration the
 * template already has is not repeated.
 */
public record PodAdditions(
    Map<String, String> nodeSelector,
    List<Map<String, Object>> tolerations,
    List<Map<String, Object>> volumes,
    List<Map<String, Object>> volumeMounts,
    Map<String, String> env) {

  public static final PodAdditions NONE = new PodAdditions(null, null, null, null, null);

  public PodAdditions {
    nodeSelector = ordered(nodeSelector);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    volumeMounts = volumeMounts == null ? List.of() : List.copyOf(volumeMounts);
    env = ordered(env);
  }

  public boolean isEmpty() {
    return nodeSelector.isEmpty()
        && tolerations.isEmpty()
        && volumes.isEmpty()
        && volumeMounts.isEmpty()
        && env.isEmpty();
  }

  /** These additions followed by {@code more}'s; {@code more}'s node selector keys win. */
  public PodAdditions plus(PodAdditions more) {
    var selector = new LinkedHashMap<>(nodeSelector);
    selector.putAll(more.nodeSelector);
    var vars = new LinkedHashMap<>(env);
    vars.putAll(more.env);
    return new PodAdditions(
        selector,
        concat(tolerations, more.tolerations),
        concat(volumes, more.volumes),
        concat(volumeMounts, more.volumeMounts),
        vars);
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    var all = new java.util.ArrayList<T>(a);
    all.addAll(b);
    return all;
  }

  // Order is kept: env entries may refer to earlier ones with $(NAME).
  private static Map<String, String> ordered(Map<String, String> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }
}
