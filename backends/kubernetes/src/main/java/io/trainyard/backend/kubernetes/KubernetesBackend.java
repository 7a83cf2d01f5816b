package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Subscription;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.util.Optional;

/**
 * Runs jobs as Kubeflow training-operator jobs ({@code kubeflow.org/v1} PyTorchJob, TFJob, MPIJob,
 * XGBoostJob; flavor {@code kubeflow-v1}) or as Kubeflow Trainer TrainJobs ({@code
 * trainer.kubeflow.org/v1alpha1}; flavor {@code trainer-v2}) on one Kubernetes cluster, in each
 * team's namespace. The EKS and GKE backends are this backend with a client they build: {@link
 * #create} takes any fabric8 client.
 *
 * <p>Placements from the configured node pools ({@link KubernetesPlacements}); the job object from
 * {@link KubeflowJobRenderer}, applied by {@link JobSubmitter}; status from one informer per kind
 * ({@link AttemptFollower}), which also fails over attempts not admitted in time; logs from the
 * job's pods ({@link PodLogs}). Thread-safe.
 */
public final class KubernetesBackend implements TrainingBackend {
  private final String kind;
  private final ClusterSettings cluster;
  private final KubeflowJobApi api;
  private final KubernetesPlacements placements;
  private final KubeflowJobRenderer renderer;
  private final JobSubmitter submitter;
  private final AttemptFollower follower;
  private final PodLogs logs;
  private final PendingPods pending;

  private KubernetesBackend(
      String kind, ClusterSettings cluster, KubernetesClient client, BackendContext context) {
    this.kind = kind;
    this.cluster = cluster;
    this.api = new KubeflowJobApi(client);
    this.placements = new KubernetesPlacements(cluster, context.shapes());
    this.renderer = new KubeflowJobRenderer(cluster);
    this.submitter = new JobSubmitter(cluster.backendId(), api, renderer);
    var ended = new EndedAttempts(context.dataDir(), context.clock());
    this.follower = new AttemptFollower(cluster, api, ended, context.clock());
    this.logs = new PodLogs(api, follower);
    this.pending = new PendingPods(api, context.clock(), cluster.backendId());
  }

  /**
   * A backend on the cluster {@code client} reaches. The backend owns the client from here on and
   * closes it.
   *
   * @param kind the configuration's {@code type}: {@code kubernetes}, {@code eks}, {@code gke}
   */
  public static KubernetesBackend create(
      String kind, ClusterSettings cluster, KubernetesClient client, BackendContext context) {
    return new KubernetesBackend(kind, cluster, client, context);
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String id() {
    return cluster.backendId();
  }

  @Override
  public Proposals placements(JobSpec spec) {
    // What waits ahead is read per quote from the last list of pending pods, at most MAX_AGE old
    // while quotes keep coming (the fastest policy ranks by it): see PendingPods.
    return placements.propose(spec, pending.read());
  }

  /**
   * The configured node pools and the last list of pending pods, once there is one recent enough to
   * answer from ({@link PendingPods#read}): newer lists are taken in the background.
   */
  @Override
  public boolean placementsFromMemory() {
    return pending.readsFromMemory();
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    var ref = submitter.submit(job);
    follower.watch(renderer.kind(job));
    return ref;
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return follower.status(ref);
  }

  @Override
  public void cancel(ExternalRef ref) {
    follower.cancel(ref);
  }

  /**
   * Found by the kind and namespace the attempt renders to; removed only if it carries the job's id
   * (an object of that name made for anything else is left alone), with its gateway Secret.
   */
  @Override
  public void cancelAttempt(BackendJob job) {
    var at = new Attempt(renderer.kind(job), KubeflowJobRenderer.namespace(job), job.objectName());
    var live = api.get(at.kind(), at.namespace(), at.name());
    if (live != null) {
      var labels = live.getMetadata().getLabels();
      if (labels == null || !job.jobId().equals(labels.get(KubeflowJobRenderer.JOB_ID_LABEL))) {
        return;
      }
      follower.cancel(at.ref(id()));
    }
    api.deleteSecret(at.namespace(), GatewaySecret.name(at.name()));
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    return logs.logs(ref, query);
  }

  /** In a Secret in the team's namespace, read by the pods through {@code secretKeyRef}. */
  @Override
  public boolean deliversGatewaySecrets() {
    return true;
  }

  /** A pod's log goes with the pod: the gateway archives it before {@link #cleanup}. */
  @Override
  public boolean keepsLogs() {
    return false;
  }

  /** Gives the operator back the job's own {@code cleanPodPolicy} and TTL ({@link PodCleanup}). */
  @Override
  public void cleanup(ExternalRef ref) {
    var at = Attempt.of(ref);
    // The job's metrics token is refused once it ended; its Secret goes now, not with the object.
    api.deleteSecret(at.namespace(), GatewaySecret.name(at.name()));
    var job = api.get(at.kind(), at.namespace(), at.name());
    if (job == null) {
      return;
    }
    var patch = PodCleanup.restorePatch(job.getMetadata().getAnnotations());
    if (patch != null) {
      api.mergePatch(at.kind(), at.namespace(), at.name(), patch);
    }
  }

  @Override
  public Subscription events(BackendEventListener listener) {
    return follower.subscribe(listener);
  }

  /** One cheap request ({@code GET /version}); a refused credential makes the backend unhealthy. */
  @Override
  public BackendHealth health() {
    try {
      api.client().getKubernetesVersion();
      return BackendHealth.ok();
    } catch (KubernetesClientException e) {
      var error = KubernetesErrors.translate(e, "GET /version");
      var prefix =
          error instanceof BackendException.Unauthenticated
              ? "credentials refused: "
              : "unreachable: ";
      return BackendHealth.unhealthy(prefix + error.getMessage());
    }
  }

  /** Whether the kind's informer has listed and is watching. */
  boolean watching(JobKind kind) {
    return follower.watching(kind);
  }

  /** The attempt's phase in the informer's cache only (for tests that race the watch). */
  Optional<BackendPhase> cachedPhase(ExternalRef ref) {
    return follower.cachedPhase(ref);
  }

  /** How many job objects the informers hold (for measurements and the health page). */
  public int cachedJobs() {
    return follower.informers().size();
  }

  @Override
  public void close() {
    pending.close();
    follower.close();
    api.client().close();
  }
}
