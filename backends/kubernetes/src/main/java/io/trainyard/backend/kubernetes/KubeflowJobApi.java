package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.extension.ExtensibleResource;
import io.trainyard.spi.BackendException;

/**
 * The calls the backend makes on job objects (Kubeflow v1 jobs, TrainJobs) and their ConfigMaps,
 * each translated at this edge ({@link KubernetesErrors}). One instance per cluster; thread-safe as
 * the client is.
 */
final class KubeflowJobApi {
  private final KubernetesClient client;

  KubeflowJobApi(KubernetesClient client) {
    this.client = client;
  }

  KubernetesClient client() {
    return client;
  }

  /**
   * The API server's coordinates of a kind: {@code kubeflow.org/v1 pytorchjobs}, {@code
   * trainer.kubeflow.org/v1alpha1 trainjobs}, namespaced.
   */
  static ResourceDefinitionContext context(JobKind kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(kind.group())
        .withVersion(kind.version())
        .withKind(kind.kind())
        .withPlural(kind.plural())
        .withNamespaced(true)
        .build();
  }

  MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      jobs(JobKind kind) {
    return client.genericKubernetesResources(context(kind));
  }

  /** The object, or null when there is none. */
  GenericKubernetesResource get(JobKind kind, String namespace, String name) {
    try {
      return jobs(kind).inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw KubernetesErrors.translate(e, "read " + kind.kind() + " " + namespace + "/" + name);
    }
  }

  /**
   * Creates {@code job}.
   *
   * @throws AlreadyExistsException an object of that name is there already
   */
  GenericKubernetesResource create(JobKind kind, GenericKubernetesResource job) {
    var ns = job.getMetadata().getNamespace();
    try {
      return jobs(kind).inNamespace(ns).resource(job).create();
    } catch (KubernetesClientException e) {
      if (KubernetesErrors.isConflict(e)) {
        throw new AlreadyExistsException();
      }
      var action = "create " + kind.kind() + " " + ns + "/" + job.getMetadata().getName();
      if (KubernetesErrors.isNotFound(e)) {
        // No namespace of that name, or the operator's CRD is not installed: neither passes.
        var words = e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage();
        throw new BackendException.Rejected(action + ": " + words, e);
      }
      throw KubernetesErrors.translate(e, action);
    }
  }

  /** Creates {@code config} unless it is there already (a retried submit). */
  void createIfAbsent(ConfigMap config) {
    var ns = config.getMetadata().getNamespace();
    try {
      client.configMaps().inNamespace(ns).resource(config).create();
    } catch (KubernetesClientException e) {
      if (!KubernetesErrors.isConflict(e)) {
        throw KubernetesErrors.translate(
            e, "create ConfigMap " + ns + "/" + config.getMetadata().getName());
      }
    }
  }

  /** Creates {@code secret} unless it is there already (a retried submit). */
  void createIfAbsent(io.fabric8.kubernetes.api.model.Secret secret) {
    var ns = secret.getMetadata().getNamespace();
    try {
      client.secrets().inNamespace(ns).resource(secret).create();
    } catch (KubernetesClientException e) {
      if (!KubernetesErrors.isConflict(e)) {
        throw KubernetesErrors.translate(
            e, "create Secret " + ns + "/" + secret.getMetadata().getName());
      }
    }
  }

  /** Makes the Secret {@code ns/name} owned by {@code owner}, so it goes when the owner goes. */
  void ownSecret(String ns, String name, io.fabric8.kubernetes.api.model.HasMetadata owner) {
    var patch = JSON_OWNER.createObjectNode();
    var ref = patch.putObject("metadata").putArray("ownerReferences").addObject();
    ref.put("apiVersion", owner.getApiVersion());
    ref.put("kind", owner.getKind());
    ref.put("name", owner.getMetadata().getName());
    ref.put("uid", owner.getMetadata().getUid());
    try {
      client
          .secrets()
          .inNamespace(ns)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
    } catch (KubernetesClientException e) {
      if (!KubernetesErrors.isNotFound(e)) {
        throw KubernetesErrors.translate(e, "patch Secret " + ns + "/" + name);
      }
    }
  }

  /** Deletes the Secret {@code ns/name}; false when it was not there. */
  boolean deleteSecret(String ns, String name) {
    try {
      return !client.secrets().inNamespace(ns).withName(name).delete().isEmpty();
    } catch (KubernetesClientException e) {
      if (KubernetesErrors.isNotFound(e)) {
        return false;
      }
      throw KubernetesErrors.translate(e, "delete Secret " + ns + "/" + name);
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON_OWNER =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /**
   * Deletes the object in the background (its pods go after it), only if it is still at {@code
   * resourceVersion} when that is given.
   *
   * @return false when it was not there
   * @throws ConflictException it changed since {@code resourceVersion} was read
   */
  boolean delete(JobKind kind, String namespace, String name, String resourceVersion) {
    var resource = jobs(kind).inNamespace(namespace).withName(name);
    try {
      // The client's resources are extensible ones, whose locked form can still choose the
      // propagation; the plain interface cannot, and then the delete is unconditional.
      if (resourceVersion != null
          && resource instanceof ExtensibleResource<GenericKubernetesResource> extensible) {
        return !extensible
            .lockResourceVersion(resourceVersion)
            .withPropagationPolicy(DeletionPropagation.BACKGROUND)
            .delete()
            .isEmpty();
      }
      return !resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().isEmpty();
    } catch (KubernetesClientException e) {
      if (KubernetesErrors.isNotFound(e)) {
        return false;
      }
      if (KubernetesErrors.isConflict(e)) {
        throw new ConflictException();
      }
      throw KubernetesErrors.translate(e, "delete " + kind.kind() + " " + namespace + "/" + name);
    }
  }

  /**
   * Applies a JSON merge patch to the object.
   *
   * @return false when it was not there
   */
  boolean mergePatch(JobKind kind, String namespace, String name, String patch) {
    try {
      jobs(kind)
          .inNamespace(namespace)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      return true;
    } catch (KubernetesClientException e) {
      if (KubernetesErrors.isNotFound(e)) {
        return false;
      }
      throw KubernetesErrors.translate(e, "patch " + kind.kind() + " " + namespace + "/" + name);
    }
  }

  /** Create found an object of the same name. */
  static final class AlreadyExistsException extends RuntimeException {
    AlreadyExistsException() {
      super("already exists", null, false, false);
    }
  }

  /** A delete's precondition failed: the object changed since it was read. */
  static final class ConflictException extends RuntimeException {
    ConflictException() {
      super("changed since read", null, false, false);
    }
  }
}
