package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.WaitingAhead;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pods of a cluster that wait for a node: phase {@code Pending} and not bound to a node yet
 * ({@code spec.nodeName} empty; a bound pod only pulls its image). Read with one {@code list} of
 * pods across namespaces, which answers the quotes of the next {@link #MAX_AGE}; a refused or
 * failed read makes the figure unknown, never the quote fail. Listing pods in every namespace needs
 * a ClusterRoleBinding the base manifests do not grant (the backend's role is bound per team
 * namespace, and other tenants' pod specs are theirs to show): {@code
 * deploy/examples/pending-pods-rbac.yaml} grants it for clusters that want {@code fastest} to see
 * them. Without it the API server refuses the list; that answer is kept for {@link #FORBIDDEN_FOR},
 * so quotes do not ask again each time. Each pending pod counts ahead of a placement on the pools
 * its {@code nodeSelector} does not rule out ({@link NodeLabels}): a pod pinned to the spot pool is
 * not ahead of a job on the on-demand pool. Thread-safe.
 */
final class PendingPods {
  static final String SOURCE = "Pending pods not yet bound to a node, listed on the cluster";

  /**
   * What one read saw.
   *
   * @param selectors each waiting pod's nodeSelector (empty for none)
   * @param unknownWhy why nothing is known; null when the read worked
   */
  record Snapshot(List<Map<String, String>> selectors, String unknownWhy) {
    Snapshot {
      selectors = List.copyOf(selectors);
    }

    static Snapshot unknown(String why) {
      return new Snapshot(List.of(), why);
    }

    /** How many of the pods could take nodes of {@code pools}; the figure and its source. */
    WaitingAhead ahead(List<NodePool> pools, ClusterSettings cluster) {
      if (unknownWhy != null) {
        return WaitingAhead.unknown(unknownWhy);
      }
      var labels = pools.stream().map(p -> NodeLabels.of(p, cluster)).toList();
      var count = 0;
      for (var selector : selectors) {
        if (labels.stream().anyMatch(l -> fits(selector, l))) {
          count++;
        }
      }
      return WaitingAhead.of(
          count,
          "pods",
          SOURCE
              + " (those whose nodeSelector allows pool "
              + String.join(", ", pools.stream().map(NodePool::name).toList())
              + ")");
    }

    private static boolean fits(Map<String, String> selector, Map<String, String> labels) {
      return selector.entrySet().stream()
          .allMatch(
              e -> !labels.containsKey(e.getKey()) || labels.get(e.getKey()).equals(e.getValue()));
    }
  }

  /** How long a refused list is believed before the next quote asks again. */
  static final Duration FORBIDDEN_FOR = Duration.ofMinutes(10);

  /**
   * How long one list answers quotes: a cluster-wide list per quote would cost every submission a
   * round trip and the API server a scan of all pods, for a figure that changes as pods start.
   */
  static final Duration MAX_AGE = Duration.ofSeconds(2);

  private final KubeflowJobApi api;
  private final Clock clock;
  private volatile Instant forbiddenUntil = Instant.MIN;
  private volatile String forbiddenWhy;
  private Snapshot last; // guarded by this
  private Instant lastAt = Instant.MIN; // guarded by this

  PendingPods(KubeflowJobApi api, Clock clock) {
    this.api = api;
    this.clock = clock;
  }

  /**
   * The pods waiting now, as listed at most {@link #MAX_AGE} ago; concurrent quotes that find the
   * last list too old wait for one new list rather than each making its own.
   */
  synchronized Snapshot read() {
    var now = clock.instant();
    if (last != null && now.isBefore(lastAt.plus(MAX_AGE))) {
      return last;
    }
    last = list(now);
    lastAt = now;
    return last;
  }

  private Snapshot list(Instant now) {
    if (now.isBefore(forbiddenUntil)) {
      return Snapshot.unknown(forbiddenWhy);
    }
    try {
      var pods =
          api.client()
              .pods()
              .inAnyNamespace()
              .withField("status.phase", "Pending")
              .list()
              .getItems();
      var selectors = new ArrayList<Map<String, String>>();
      for (var pod : pods) {
        var phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        var spec = pod.getSpec();
        var bound = spec != null && spec.getNodeName() != null && !spec.getNodeName().isBlank();
        if ("Pending".equals(phase) && !bound) {
          var selector = spec == null ? null : spec.getNodeSelector();
          selectors.add(selector == null ? Map.of() : Map.copyOf(selector));
        }
      }
      return new Snapshot(selectors, null);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        forbiddenWhy =
            "the gateway may not list pods in all namespaces (grant it with"
                + " deploy/examples/pending-pods-rbac.yaml to see other tenants' waiting pods)";
        forbiddenUntil = clock.instant().plus(FORBIDDEN_FOR);
        return Snapshot.unknown(forbiddenWhy);
      }
      return Snapshot.unknown(
          "pending pods could not be listed: "
              + KubernetesErrors.translate(e, "list pods").getMessage());
    }
  }
}
