package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * PyTorch elastic training bounds (the operator's {@code elasticPolicy}).
 *
 * @param minReplicas the fewest worker replicas the job keeps running with
 * @param maxReplicas the most worker replicas it may grow to
 * @param maxRestarts how often torchrun restarts the worker group before giving up
 * @param rdzvBackend torchrun's rendezvous backend ({@code c10d}, {@code etcd}, {@code etcd-v2},
 *     {@code static}); null = the launcher's default. Kept so elastic Kubeflow documents convert
 *     both ways unchanged.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Elastic(
    Integer minReplicas, Integer maxReplicas, Integer maxRestarts, String rdzvBackend) {

  /** Bounds only, with the launcher's default rendezvous. */
  public Elastic(Integer minReplicas, Integer maxReplicas, Integer maxRestarts) {
    this(minReplicas, maxReplicas, maxRestarts, null);
  }
}
