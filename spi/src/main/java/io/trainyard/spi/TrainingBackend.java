package io.trainyard.spi;

import io.trainyard.spi.spec.JobSpec;

/**
 * A place where jobs run: a Kubernetes cluster, a managed platform, the gateway's own host. One
 * instance per configured backend block, created by its {@link BackendFactory}.
 *
 * <p>Thread-safety: every method may be called concurrently from request threads and the
 * reconciler. Implementations translate their SDK's errors into {@link BackendException}s at this
 * edge and never let an SDK type through.
 */
public interface TrainingBackend extends AutoCloseable {

  /** The kind, e.g. {@code local}, {@code eks}, {@code sagemaker}. */
  String kind();

  /** The instance name from configuration, e.g. {@code eks-prod-use1}; unique in a gateway. */
  String id();

  /**
   * The concrete ways this backend could run {@code spec}, each a {@link Placement} the cost module
   * prices, plus a {@link Rejection} for every way it cannot. Never throws for "cannot run this";
   * pure apart from reading configuration and cached capacity. Each rejection says its {@link
   * Rejection.Kind}: {@code NEVER} only when the spec cannot fit this backend's configuration;
   * {@code NOT_NOW} when it is down, full or over a quota, so the job waits in the queue rather
   * than being refused.
   */
  Proposals placements(JobSpec spec);

  /**
   * Whether {@link #placements} answers now from what this backend already holds (its
   * configuration, a price catalog, an informer's cache, the local host's figures) without network
   * I/O and without a wait that could hang. The gateway then asks it in the caller's thread rather
   * than on a pool bounded by the quote deadline. False (the default) whenever a call may reach a
   * cloud or cluster API or wait for one, which is the safe answer when in doubt.
   *
   * <p>The answer may change over the backend's life (false until it has first reached its cluster,
   * true after), so it is asked for each quote; true must hold for a call made right after. Cheap,
   * never blocks; thread-safe like the rest.
   */
  default boolean placementsFromMemory() {
    return false;
  }

  /**
   * Starts {@code job}'s attempt on this backend, as the object named {@link
   * BackendJob#objectName()}. Idempotent per (job, attempt): if that object already exists and
   * carries the same job id and spec hash it is adopted and its reference returned; if it exists
   * for another job, {@link BackendException.Rejected} is thrown.
   *
   * @throws BackendException.CapacityUnavailable refused for capacity or quota (fail over)
   * @throws BackendException.Rejected refused for good (fail the job)
   * @throws BackendException.Retryable transient trouble (try again later)
   * @throws BackendException.Unauthenticated the backend's own credentials failed
   */
  ExternalRef submit(BackendJob job);

  /**
   * The attempt's current status.
   *
   * @throws BackendException.NotFound the object is gone
   */
  BackendStatus status(ExternalRef ref);

  /**
   * Stops the attempt and removes what it runs. Idempotent: cancelling a finished or missing object
   * succeeds. The job reaches its end state through {@link #status}.
   */
  void cancel(ExternalRef ref);

  /**
   * Stops and removes whatever {@code attempt} left here, found from the attempt as it was (or
   * would have been) submitted, not from a reference: for an attempt the gateway has no reference
   * of, because the answer to its submit was lost (a crash or a timeout between the call and the
   * gateway's write), and that the job has left (failed over, queued, failed or cancelled).
   * Idempotent: nothing there is success. The default cancels the object named {@link
   * BackendJob#objectName()}; a backend that needs more than the name to find it overrides this.
   */
  default void cancelAttempt(BackendJob attempt) {
    cancel(new ExternalRef(id(), attempt.objectName(), java.util.Map.of()));
  }

  /**
   * The attempt's logs, oldest first. With {@code follow} the stream stays open until the attempt
   * ends or the caller closes it.
   *
   * @throws BackendException.NotFound no logs are known for the attempt
   */
  LogStream logs(ExternalRef ref, LogQuery query);

  /**
   * Whether an ended attempt's logs stay readable through {@link #logs} (files, CloudWatch, Vertex
   * logging). A backend whose logs live only as long as what ran the job (a Kubernetes pod) says
   * false: the gateway then archives the logs when the attempt ends and calls {@link #cleanup}.
   */
  default boolean keepsLogs() {
    return true;
  }

  /**
   * Removes what an ended attempt left for its logs to be read (pods kept until the gateway has
   * archived them), as the job's own cleanup settings ask. Called once the logs are archived;
   * idempotent; a missing object is not an error.
   */
  default void cleanup(ExternalRef ref) {}

  /**
   * Registers for pushed status changes where the backend can push (Kubernetes watches). The
   * reconciler's periodic resync is the safety net, so a backend that cannot push returns {@link
   * Subscription#NONE}. Listeners are called from the backend's own threads and must not block.
   */
  default Subscription events(BackendEventListener listener) {
    return Subscription.NONE;
  }

  /**
   * Whether this backend passes {@link BackendJob#gatewaySecretEnv()} to the job's processes in a
   * way only they can read (a process environment on this host, a Kubernetes Secret). Managed
   * platforms that show a job's environment to anyone who may describe it say false (the default),
   * and the gateway then gives them nothing secret.
   */
  default boolean deliversGatewaySecrets() {
    return false;
  }

  /**
   * Whether the job's processes share the gateway host's network, so that a loopback address of the
   * gateway reaches it ({@code local} without a sandbox). False (the default): only a public URL
   * does.
   */
  default boolean sharesGatewayNetwork() {
    return false;
  }

  /** Whether the backend can take work now; cheap enough to call from a health check. */
  BackendHealth health();

  /** Releases clients and threads. Running jobs are left running. */
  @Override
  void close();
}
