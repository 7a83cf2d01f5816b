package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.testkit.TestSpecs;
import io.trainyard.testkit.TrainingBackendContract;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backend contract for every backend that runs jobs through this module (kubernetes, eks, gke):
 * the platform is a CRUD API server, out of band is its admin client, and the fake operator moves a
 * job to its end. A subclass starts the server and builds its backend on it; public for the eks and
 * gke tests.
 */
public abstract class KubernetesBackendContract extends TrainingBackendContract {
  /** The team namespace the contract's jobs run in. */
  public static final String NAMESPACE = "nlp-jobs";

  /** The API server the backend under test talks to. */
  protected abstract CrudApiServer cluster();

  /** The clock the fake operator stamps times with. */
  protected abstract Clock clock();

  /** The body of {@code spec:} of the contract's job; a spec the backend's pools can place. */
  protected String jobSpec() {
    return """
        framework: pytorch
        image: registry.example.com/bert:1.4
        command: [python, train.py]
        resources: {cpus: 1, memory: 1Gi}
        replicas: {master: 1}
        """;
  }

  @Override
  protected BackendJob job(String jobId, String specHash) {
    var spec = TestSpecs.spec(jobSpec());
    var placement = backend().placements(spec).placements().get(0);
    return new BackendJob(
        jobId,
        1,
        "nlp",
        "alice",
        "bert",
        spec,
        specHash,
        placement,
        Map.of("namespace", NAMESPACE));
  }

  /**
   * A PyTorchJob labelled for {@code owner} as the renderer labels its objects (job id, spec hash,
   * team), with one master: what adoption reads is the name and the labels.
   */
  @Override
  protected void createOutOfBand(BackendJob owner, String objectName) {
    var labels = new LinkedHashMap<String, String>();
    labels.put(KubeflowJobRenderer.JOB_ID_LABEL, owner.jobId());
    labels.put(KubeflowJobRenderer.TEAM_LABEL, owner.team());
    labels.put(
        KubeflowJobRenderer.SPEC_HASH_LABEL, KubeflowJobRenderer.specHashLabel(owner.specHash()));
    var container =
        Map.of(
            "name",
            "pytorch",
            "image",
            owner.spec().image(),
            "command",
            List.of("python", "train.py"));
    var master =
        Map.of(
            "replicas",
            1,
            "restartPolicy",
            "OnFailure",
            "template",
            Map.of("spec", Map.of("containers", List.of(container))));
    cluster()
        .client()
        .genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB))
        .inNamespace(NAMESPACE)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("kubeflow.org/v1")
                .withKind("PyTorchJob")
                .withNewMetadata()
                .withName(objectName)
                .withNamespace(NAMESPACE)
                .withLabels(labels)
                .endMetadata()
                .addToAdditionalProperties(
                    "spec", Map.of("pytorchReplicaSpecs", Map.of("Master", master)))
                .build())
        .create();
  }

  /**
   * The fake operator starts the job, until the backend's informer shows it: from then on its watch
   * is up and sees what the kit does next (a cancel's delete, an out-of-band one).
   */
  @Override
  protected void awaitFollowed(ExternalRef ref) {
    awaitSeenRunning(ref);
  }

  /** Runs the job (so the backend has seen it live), then deletes it as {@code kubectl} would. */
  @Override
  protected void deleteOutOfBand(ExternalRef ref) {
    var at = Attempt.of(ref);
    awaitSeenRunning(ref);
    operator().delete(at);
    var deadline = System.nanoTime() + SETTLE.toNanos();
    while (operator().get(at) != null) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(at + " was not deleted");
      }
      pause();
    }
  }

  @Override
  protected int objectsOf(BackendJob job) {
    return (int)
        cluster()
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB))
            .inNamespace(NAMESPACE)
            .list()
            .getItems()
            .stream()
            .filter(j -> j.getMetadata().getName().equals(job.objectName()))
            .count();
  }

  @Override
  protected void finish(ExternalRef ref) {
    awaitSeenRunning(ref);
    operator().succeeded(Attempt.of(ref));
  }

  /**
   * Marks the job running until the backend's status shows it. The CRUD server's watches do not
   * replay what happened between an informer's list and its watch (a real API server does, from the
   * list's resourceVersion), so a change made in that gap would be missed; repeating it until seen
   * proves the watch is live before the kit's next step depends on it.
   */
  private void awaitSeenRunning(ExternalRef ref) {
    var at = Attempt.of(ref);
    var deadline = System.nanoTime() + SETTLE.toNanos();
    while (true) {
      operator().running(at, Map.of("Master", 1));
      if (backend().status(ref).phase() == BackendPhase.RUNNING) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(at + " never showed RUNNING: " + backend().status(ref));
      }
      pause();
    }
  }

  private FakeTrainingOperator operator() {
    return new FakeTrainingOperator(cluster().client(), clock());
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
