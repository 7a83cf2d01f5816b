package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.trainyard.spi.BackendJob;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The gateway's secret environment of an attempt ({@link BackendJob#gatewaySecretEnv()}: the
 * metrics URL and token) as a Secret {@code <object name>-gateway} in the team's namespace beside
 * the job object, read by every container through {@code valueFrom.secretKeyRef}, so the values are
 * in no object anyone who may read the job can see. Created before the job object (its pods find it
 * at once), then owned by it (it goes when the job goes), and deleted at cleanup. Pure functions;
 * applying is {@link JobSubmitter}'s and the backend's business.
 */
final class GatewaySecret {
  static final String SUFFIX = "-gateway";

  private GatewaySecret() {}

  static String name(String objectName) {
    return objectName + SUFFIX;
  }

  /** The Secret for {@code job}; empty when the gateway gave no secret environment. */
  static Optional<Secret> desired(BackendJob job, java.util.Map<String, String> labels) {
    if (job.gatewaySecretEnv().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new SecretBuilder()
            .withNewMetadata()
            .withName(name(job.objectName()))
            .withNamespace(KubeflowJobRenderer.namespace(job))
            .withLabels(labels)
            .endMetadata()
            .withType("Opaque")
            .withStringData(new TreeMap<>(job.gatewaySecretEnv()))
            .build());
  }

  /**
   * Adds a {@code secretKeyRef} to the Secret for each of the job's gateway variables to every
   * container of the rendered job ({@code containers} of v1 replica templates; a TrainJob's {@code
   * spec.trainer.env}).
   */
  static void reference(ObjectNode rendered, BackendJob job) {
    if (job.gatewaySecretEnv().isEmpty()) {
      return;
    }
    var trainer = rendered.path("spec").path("trainer");
    if (trainer instanceof ObjectNode node) {
      addEnv(node, job);
    }
    addToContainers(rendered, job);
  }

  private static void addToContainers(JsonNode node, BackendJob job) {
    if (node instanceof ObjectNode object) {
      var containers = object.get("containers");
      if (containers instanceof ArrayNode list) {
        for (var container : list) {
          if (container instanceof ObjectNode c) {
            addEnv(c, job);
          }
        }
      }
      object.properties().forEach(e -> addToContainers(e.getValue(), job));
    } else if (node instanceof ArrayNode array) {
      array.forEach(child -> addToContainers(child, job));
    }
  }

  private static void addEnv(ObjectNode container, BackendJob job) {
    var env = container.has("env") ? (ArrayNode) container.get("env") : container.putArray("env");
    for (var key : new TreeMap<>(job.gatewaySecretEnv()).keySet()) {
      var already = false;
      for (var entry : env) {
        already |= key.equals(entry.path("name").asText());
      }
      if (already) {
        continue;
      }
      var ref = env.addObject().put("name", key).putObject("valueFrom").putObject("secretKeyRef");
      ref.put("name", name(job.objectName()));
      ref.put("key", key);
    }
  }
}
