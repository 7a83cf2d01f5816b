package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.backend.kubernetes.KubeflowJobApi.AlreadyExistsException;
import io.trainyard.backend.kubernetes.KubeflowJobRenderer.PoolGoneException;
import io.trainyard.kubeflow.KubeflowConversionException;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.ExternalRef;
import java.util.Objects;

/**
 * Applies an attempt's desired objects: create-if-absent by name (server-side apply would do, but
 * the CRUD API server the tests run on answers 404 to applying a new object), so submitting the
 * same attempt twice creates it once. An object already there is adopted only when its name, job-id
 * label and spec-hash label all match the attempt; anything else of that name is refused.
 */
final class JobSubmitter {
  private final String backendId;
  private final KubeflowJobApi api;
  private final KubeflowJobRenderer renderer;

  JobSubmitter(String backendId, KubeflowJobApi api, KubeflowJobRenderer renderer) {
    this.backendId = backendId;
    this.api = api;
    this.renderer = renderer;
  }

  ExternalRef submit(BackendJob job) {
    if (job.placement() == null || !backendId.equals(job.placement().backendId())) {
      throw new BackendException.Rejected(
          "the job's placement is not on " + backendId + ": " + job.placement(), null);
    }
    var desired = desired(job);
    var kind = renderer.kind(job);
    var at = Attempt.of(kind, desired);
    // Before the job, so its pods find it at once; owned by the job once that exists.
    var secret = renderer.desiredSecret(job);
    secret.ifPresent(api::createIfAbsent);
    GenericKubernetesResource live;
    try {
      live = api.create(kind, desired);
    } catch (AlreadyExistsException e) {
      live = adopt(job, at);
    }
    if (secret.isPresent()) {
      api.ownSecret(at.namespace(), secret.get().getMetadata().getName(), live);
    }
    // After the job, so the ConfigMap can be owned by it and go when it goes.
    renderer.desiredConfig(job, live).ifPresent(api::createIfAbsent);
    return at.ref(backendId);
  }

  private GenericKubernetesResource desired(BackendJob job) {
    try {
      return renderer.desired(job, job.placement());
    } catch (KubeflowConversionException e) {
      throw new BackendException.Rejected(
          "cannot render the job for Kubernetes: "
              + String.join(
                  "; ", e.errors().stream().map(f -> f.field() + ": " + f.message()).toList()),
          e);
    } catch (PoolGoneException e) {
      throw new BackendException.CapacityUnavailable(e.getMessage(), e);
    }
  }

  private GenericKubernetesResource adopt(BackendJob job, Attempt at) {
    var live = api.get(at.kind(), at.namespace(), at.name());
    if (live == null) {
      throw new BackendException.Retryable(at + " was deleted while being adopted", null);
    }
    var labels = live.getMetadata().getLabels();
    var sameJob =
        labels != null
            && job.jobId().equals(labels.get(KubeflowJobRenderer.JOB_ID_LABEL))
            && Objects.equals(
                KubeflowJobRenderer.specHashLabel(job.specHash()),
                labels.get(KubeflowJobRenderer.SPEC_HASH_LABEL));
    if (!sameJob) {
      throw new BackendException.Rejected(
          at
              + " already exists and is not this attempt (job-id "
              + (labels == null ? null : labels.get(KubeflowJobRenderer.JOB_ID_LABEL))
              + ", spec-hash "
              + (labels == null ? null : labels.get(KubeflowJobRenderer.SPEC_HASH_LABEL))
              + "); not adopted",
          null);
    }
    return live;
  }
}
