package io.trainyard.backend.eks;

import io.trainyard.backend.kubernetes.ClusterSettings;
import io.trainyard.backend.kubernetes.KubernetesBackend;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Subscription;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kubernetes backend on an EKS cluster, connected on first use: the gateway starts even when AWS
 * or the cluster cannot be reached, and this backend reports why in {@link #health()} until it can.
 * Once {@code DescribeCluster} has answered, every call goes to the {@link KubernetesBackend} on
 * that cluster.
 *
 * <p>A failed connection is remembered for {@link #RETRY_AFTER}, so quotes and status reads do not
 * each wait for AWS while it is down. Thread-safe.
 */
final class EksBackend implements TrainingBackend {
  /** How long a failed connection is reported without asking AWS again. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(30);

  private final ClusterSettings settings;
  private final BackendContext context;
  private final EksClusterConnector connector;
  private final List<DeferredSubscription> deferred = new ArrayList<>();
  private volatile KubernetesBackend connected;
  private BackendException lastFailure;
  private Instant failedAt;
  private boolean closed;

  EksBackend(ClusterSettings settings, BackendContext context, EksClusterConnector connector) {
    this.settings = settings;
    this.context = context;
    this.connector = connector;
  }

  @Override
  public String kind() {
    return EksBackendFactory.KIND;
  }

  @Override
  public String id() {
    return settings.backendId();
  }

  /** Placements need the cluster's backend; an unreachable cluster rejects with the reason. */
  @Override
  public Proposals placements(JobSpec spec) {
    KubernetesBackend backend;
    try {
      backend = connected();
    } catch (BackendException e) {
      // The cluster may come back: the job waits for it rather than being refused.
      return Proposals.notNow(id(), "cluster not reachable: " + e.getMessage());
    }
    return backend.placements(spec);
  }

  /**
   * Not before the cluster is reached: the first placements call asks AWS ({@code DescribeCluster})
   * and may wait for another caller's attempt. Once connected (never undone), as the cluster's
   * backend says.
   */
  @Override
  public boolean placementsFromMemory() {
    var backend = connected;
    return backend != null && backend.placementsFromMemory();
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    return connected().submit(job);
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return connected().status(ref);
  }

  @Override
  public void cancel(ExternalRef ref) {
    connected().cancel(ref);
  }

  @Override
  public void cancelAttempt(BackendJob attempt) {
    connected().cancelAttempt(attempt);
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    return connected().logs(ref, query);
  }

  /** As on any cluster: a Secret beside the job object. */
  @Override
  public boolean deliversGatewaySecrets() {
    return true;
  }

  /** Pods' logs go with the pods, as on any cluster: the gateway archives them first. */
  @Override
  public boolean keepsLogs() {
    return false;
  }

  @Override
  public void cleanup(ExternalRef ref) {
    connected().cleanup(ref);
  }

  /** Registers now, or on connecting when the cluster has not been reached yet. */
  @Override
  public Subscription events(BackendEventListener listener) {
    synchronized (this) {
      if (connected == null) {
        var subscription = new DeferredSubscription(listener);
        deferred.add(subscription);
        return subscription;
      }
    }
    return connected.events(listener);
  }

  /** Reaches the cluster if not yet done, then {@code GET /version} with the current token. */
  @Override
  public BackendHealth health() {
    KubernetesBackend backend;
    try {
      backend = connected();
    } catch (BackendException e) {
      var prefix =
          e instanceof BackendException.Unauthenticated ? "credentials refused: " : "unreachable: ";
      return BackendHealth.unhealthy(prefix + e.getMessage());
    }
    return backend.health();
  }

  /** Whether {@code DescribeCluster} has answered and the cluster's client is built. */
  boolean isConnected() {
    return connected != null;
  }

  @Override
  public void close() {
    KubernetesBackend backend;
    synchronized (this) {
      closed = true;
      backend = connected;
      deferred.clear();
    }
    try {
      if (backend != null) {
        backend.close();
      }
    } finally {
      connector.close();
    }
  }

  private KubernetesBackend connected() {
    var backend = connected;
    if (backend != null) {
      return backend;
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("backend " + id() + " is closed");
      }
      if (connected != null) {
        return connected;
      }
      var now = context.clock().instant();
      if (lastFailure != null && now.isBefore(failedAt.plus(RETRY_AFTER))) {
        throw again(lastFailure);
      }
      try {
        backend = KubernetesBackend.create(kind(), settings, connector.connect(), context);
      } catch (BackendException e) {
        lastFailure = e;
        failedAt = now;
        throw e;
      }
      for (var subscription : deferred) {
        subscription.attach(backend);
      }
      deferred.clear();
      lastFailure = null;
      connected = backend;
      return backend;
    }
  }

  // A new exception of the same type, so each caller's stack shows its own call.
  private static BackendException again(BackendException e) {
    var message = e.getMessage();
    if (e instanceof BackendException.Unauthenticated) {
      return new BackendException.Unauthenticated(message, e);
    }
    return new BackendException.Retryable(message, e);
  }

  /** A listener registered before the cluster was reached; subscribed when it is. */
  private final class DeferredSubscription implements Subscription {
    private final BackendEventListener listener;
    private Subscription inner;
    private boolean cancelled;

    DeferredSubscription(BackendEventListener listener) {
      this.listener = listener;
    }

    void attach(KubernetesBackend backend) {
      if (!cancelled) {
        inner = backend.events(listener);
      }
    }

    @Override
    public void close() {
      Subscription toClose;
      synchronized (EksBackend.this) {
        cancelled = true;
        deferred.remove(this);
        toClose = inner;
      }
      if (toClose != null) {
        toClose.close();
      }
    }
  }
}
