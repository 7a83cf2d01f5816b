package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.WaitingAhead;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods of a cluster that wait for a node: phase {@code Pending} and not bound to a node yet
 * ({@code spec.nodeName} empty; a bound pod only pulls its image). Read with one {@code list} of
 * pods across namespaces, which answers the quotes of the next {@link #MAX_AGE}; after that a quote
 * starts the next list in the background and is answered from the last one, so quotes do not wait
 * for the API server (see {@link #read}). A refused or failed read makes the figure unknown, never
 * the quote fail. Listing pods in every namespace needs a ClusterRoleBinding the base manifests do
 * not grant (the backend's role is bound per team namespace, and other tenants' pod specs are
 * theirs to show): {@code deploy/examples/pending-pods-rbac.yaml} grants it for clusters that want
 * {@code fastest} to see them. Without it the API server refuses the list; that answer is kept for
 * {@link #FORBIDDEN_FOR}, so quotes do not ask again each time. Each pending pod counts ahead of a
 * placement on the pools its {@code nodeSelector} does not rule out ({@link NodeLabels}): a pod
 * pinned to the spot pool is not ahead of a job on the on-demand pool. Thread-safe.
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
   * How old a list may be before a quote starts a new one: a cluster-wide list per quote would cost
   * the API server a scan of all pods per submission, for a figure that changes as pods start.
   */
  static final Duration MAX_AGE = Duration.ofSeconds(2);

  /**
   * How long a list answers quotes while a newer one is taken in the background. Past this (no
   * quote for a while, or the lists since have not answered) a quote waits for a new list rather
   * than show what waited long ago.
   */
  static final Duration SERVED_FOR = Duration.ofSeconds(30);

  /** One list and when it was started. */
  private record Listed(Snapshot snapshot, Instant at) {}

  private static final Logger LOG = LoggerFactory.getLogger(PendingPods.class);

  private final KubeflowJobApi api;
  private final Clock clock;
  private final String backendId;
  private final ExecutorService refresher;
  private final AtomicReference<Listed> last = new AtomicReference<>();
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private final Object listing = new Object();
  private volatile Instant forbiddenUntil = Instant.MIN;
  private volatile String forbiddenWhy;

  /** Lists in the background on a daemon thread of its own, stopped by {@link #close}. */
  PendingPods(KubeflowJobApi api, Clock clock, String backendId) {
    this(
        api,
        clock,
        backendId,
        Executors.newSingleThreadExecutor(
            r -> {
              var thread = new Thread(r, "trainyard-pending-pods-" + backendId);
              thread.setDaemon(true);
              return thread;
            }));
  }

  /** Lists in the background on {@code refresher}, which {@link #close} shuts down. */
  PendingPods(KubeflowJobApi api, Clock clock, String backendId, ExecutorService refresher) {
    this.api = api;
    this.clock = clock;
    this.backendId = backendId;
    this.refresher = refresher;
  }

  /**
   * The pods waiting, as last listed. A list older than {@link #MAX_AGE} is still the answer while
   * one new list is taken in the background for the quotes after; only without a list younger than
   * {@link #SERVED_FOR} (none taken yet, or none for a while) does the caller wait, for one new
   * list that concurrent callers share.
   */
  Snapshot read() {
    var seen = last.get();
    var now = clock.instant();
    if (seen == null || !now.isBefore(seen.at().plus(SERVED_FOR))) {
      return listNow();
    }
    if (!now.isBefore(seen.at().plus(MAX_AGE))) {
      refreshInBackground();
    }
    return seen.snapshot();
  }

  /**
   * Whether {@link #read} answers from memory, with a margin of {@link #MAX_AGE} so that it still
   * does a moment after this said so.
   */
  boolean readsFromMemory() {
    var seen = last.get();
    return seen != null && clock.instant().isBefore(seen.at().plus(SERVED_FOR).minus(MAX_AGE));
  }

  /** Stops the background lists; one under way is interrupted. */
  void close() {
    refresher.shutdownNow();
  }

  private Snapshot listNow() {
    synchronized (listing) {
      var seen = last.get();
      var now = clock.instant();
      if (seen != null && now.isBefore(seen.at().plus(SERVED_FOR))) {
        return seen.snapshot(); // another caller listed while this one waited
      }
      return keep(new Listed(list(now), now)).snapshot();
    }
  }

  private void refreshInBackground() {
    if (!refreshing.compareAndSet(false, true)) {
      return; // one at a time: the quotes meanwhile keep the last list
    }
    try {
      refresher.execute(
          () -> {
            try {
              var now = clock.instant();
              keep(new Listed(list(now), now));
            } catch (RuntimeException e) {
              // Not the API server's answer (that is a snapshot): the client itself failed, e.g.
              // closing. The last list stands; a quote past SERVED_FOR lists and sees it itself.
              LOG.debug("pending pods of {}: background list failed", backendId, e);
            } finally {
              refreshing.set(false);
            }
          });
    } catch (RejectedExecutionException e) {
      refreshing.set(false); // closed: the last list stands
    }
  }

  /** {@code listed}, unless a list started later is already kept (two lists may overlap). */
  private Listed keep(Listed listed) {
    return last.accumulateAndGet(
        listed, (kept, next) -> kept == null || !next.at().isBefore(kept.at()) ? next : kept);
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
