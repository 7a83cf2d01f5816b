package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PyTorch elastic training bounds (the operator's {@code elasticPolicy}). Immutable; the trees in
 * {@code metrics} are the user's, kept as written.
 *
 * @param minReplicas the fewest worker replicas the job keeps running with
 * @param maxReplicas the most worker replicas it may grow to; a Kubernetes backend prices the job
 *     at this many workers
 * @param maxRestarts how often torchrun restarts the worker group before giving up
 * @param rdzvBackend torchrun's rendezvous backend ({@code c10d}, {@code etcd}, {@code etcd-v2},
 *     {@code static}); null = the launcher's default. Kept so elastic Kubeflow documents convert
 *     both ways unchanged.
 * @param rdzvHost the rendezvous store's host when it is the user's own service (an etcd, ...);
 *     null = the backend's own endpoint (the first worker on Kubernetes)
 * @param rdzvPort the rendezvous store's port; null = the backend's
 * @param rdzvId torchrun's run id in the store; null = the launcher's default
 * @param rdzvConf torchrun's {@code --rdzv-conf} entries, in order; null when none
 * @param metrics HorizontalPodAutoscaler {@code metrics} ({@code autoscaling/v2} MetricSpec trees)
 *     that scale the workers between the bounds: Kubernetes only, passed through unread; null when
 *     none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Elastic(
    Integer minReplicas,
    Integer maxReplicas,
    Integer maxRestarts,
    String rdzvBackend,
    String rdzvHost,
    Integer rdzvPort,
    String rdzvId,
    Map<String, String> rdzvConf,
    List<Map<String, Object>> metrics) {

  public Elastic {
    rdzvConf =
        rdzvConf == null || rdzvConf.isEmpty()
            ? null
            : Collections.unmodifiableMap(new LinkedHashMap<>(rdzvConf));
    // Jackson may hand us nulls inside the trees, which List.copyOf refuses.
    metrics =
        metrics == null || metrics.isEmpty()
            ? null
            : Collections.unmodifiableList(new java.util.ArrayList<>(metrics));
  }

  /** Bounds only, with the launcher's default rendezvous. */
  public Elastic(Integer minReplicas, Integer maxReplicas, Integer maxRestarts) {
    this(minReplicas, maxReplicas, maxRestarts, null);
  }

  /** Bounds and a rendezvous backend at the backend's own endpoint. */
  public Elastic(
      Integer minReplicas, Integer maxReplicas, Integer maxRestarts, String rdzvBackend) {
    this(minReplicas, maxReplicas, maxRestarts, rdzvBackend, null, null, null, null, null);
  }

  /**
   * True when the rendezvous is the user's own service ({@code rdzvHost} set): a backend must not
   * point replicas at an endpoint of its own then.
   */
  @JsonIgnore
  public boolean hasOwnRendezvous() {
    return rdzvHost != null;
  }
}
