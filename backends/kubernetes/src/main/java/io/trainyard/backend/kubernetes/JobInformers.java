package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shared informer per job kind (the v1 kinds, TrainJob) on this cluster, across namespaces,
 * selecting only objects with a {@code trainyard.io/job-id} label: a list and then one long watch
 * per kind, however many jobs there are, instead of a request per job per poll. Started on first
 * use of a kind, so a cluster without (say) the MPIJob CRD is never asked about MPIJobs. The
 * informer's store is the status cache; {@link Listener} hears every change.
 *
 * <p>Needs {@code list} and {@code watch} on the kinds cluster-wide. Thread-safe.
 */
final class JobInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobInformers.class);

  /** Hears changes to job objects, on the informer's threads; must not block. */
  interface Listener {
    void changed(JobKind kind, GenericKubernetesResource job);

    /**
     * The object left the cache. Called by the cache itself, before the cache answers without it,
     * so what is recorded here is never missed by a reader.
     */
    void removed(JobKind kind, GenericKubernetesResource lastKnown);

    /** The object is gone; called after {@link #removed}, with the other events. */
    void deleted(JobKind kind, GenericKubernetesResource lastKnown);
  }

  private final KubeflowJobApi api;
  private final Listener listener;
  private final Map<JobKind, SharedIndexInformer<GenericKubernetesResource>> informers =
      new ConcurrentHashMap<>();
  private volatile boolean closed;

  JobInformers(KubeflowJobApi api, Listener listener) {
    this.api = api;
    this.listener = listener;
  }

  /**
   * The cached object, or null when the cache does not have it; {@link #synced} says whether that
   * means anything.
   */
  GenericKubernetesResource cached(JobKind kind, String namespace, String name) {
    return informer(kind).getStore().getByKey(namespace + "/" + name);
  }

  /** Whether the kind's informer has listed once, so its cache is complete up to its watch. */
  boolean synced(JobKind kind) {
    var informer = informers.get(kind);
    return informer != null && informer.hasSynced();
  }

  /** How many objects the caches hold, over every kind. */
  int size() {
    return informers.values().stream().mapToInt(i -> i.getStore().list().size()).sum();
  }

  /** Starts the kind's informer if it is not running yet; returns without waiting for its list. */
  SharedIndexInformer<GenericKubernetesResource> informer(JobKind kind) {
    if (closed) {
      throw new IllegalStateException("the backend is closed");
    }
    return informers.computeIfAbsent(kind, this::start);
  }

  private SharedIndexInformer<GenericKubernetesResource> start(JobKind kind) {
    // Resync 0: replaying the cache to ourselves tells nothing the reconciler's resync doesn't.
    var informer =
        api.jobs(kind)
            .inAnyNamespace()
            .withLabel(KubeflowJobRenderer.JOB_ID_LABEL)
            .runnableInformer(0);
    informer.itemStore(new RememberingStore(kind));
    informer.addEventHandler(handler(kind));
    informer
        .start()
        .whenComplete(
            (ok, error) -> {
              if (error != null && !closed) {
                LOG.warn("informer for {} could not list: {}", kind.kind(), error.getMessage());
              }
            });
    return informer;
  }

  /**
   * The informer's cache, telling the listener what it drops as it drops it: the event handlers run
   * later, on another thread, and a status read in between would find neither the object nor its
   * end.
   */
  private final class RememberingStore extends BasicItemStore<GenericKubernetesResource> {
    private final JobKind kind;

    RememberingStore(JobKind kind) {
      super(Cache::metaNamespaceKeyFunc);
      this.kind = kind;
    }

    @Override
    public GenericKubernetesResource remove(String key) {
      // Told before the object leaves the cache: a status read that misses the cache must find
      // the end already remembered, never a gap between the two.
      var leaving = get(key);
      if (leaving != null) {
        listener.removed(kind, leaving);
      }
      return super.remove(key);
    }
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(JobKind kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource job) {
        listener.changed(kind, job);
      }

      @Override
      public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
        listener.changed(kind, after);
      }

      @Override
      public void onDelete(GenericKubernetesResource job, boolean finalStateUnknown) {
        listener.deleted(kind, job);
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    informers.values().forEach(SharedIndexInformer::stop);
    // Let a list or watch in flight wind down before the caller closes the client under it.
    for (var informer : informers.values()) {
      try {
        informer.stopped().toCompletableFuture().get(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException e) {
        LOG.debug("an informer did not stop cleanly: {}", e.toString());
      }
    }
    informers.clear();
  }
}
