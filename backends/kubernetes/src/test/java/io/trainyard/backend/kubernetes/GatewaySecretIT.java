package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's secret environment (the metrics URL and token) reaches the pods through a Secret
 * beside the job object, never in the job object itself, and goes at cleanup.
 */
class GatewaySecretIT extends CrudServerTest {
  private static final Map<String, String> ENV =
      Map.of(
          "TRAINYARD_METRICS_URL", "https://trainyard.example.com/v1/jobs/x/metrics",
          "TRAINYARD_METRICS_TOKEN", "tym_secret-value-0123456789");

  @Test
  void theSecretIsCreatedWithTheJobReferencedByEveryContainerAndDeletedAtCleanup() {
    var job = job(SPEC).withGatewaySecretEnv(ENV);
    var ref = submit(job);
    var at = Attempt.of(ref);

    var secret =
        cluster
            .client()
            .secrets()
            .inNamespace(at.namespace())
            .withName(GatewaySecret.name(at.name()))
            .get();
    assertThat(secret).isNotNull();
    var values = new java.util.HashMap<String, String>();
    if (secret.getStringData() != null) {
      values.putAll(secret.getStringData());
    }
    if (secret.getData() != null) {
      secret
          .getData()
          .forEach(
              (k, v) ->
                  values.put(
                      k,
                      new String(
                          java.util.Base64.getDecoder().decode(v),
                          java.nio.charset.StandardCharsets.UTF_8)));
    }
    assertThat(values).isEqualTo(ENV);
    assertThat(secret.getMetadata().getLabels())
        .containsEntry(KubeflowJobRenderer.JOB_ID_LABEL, job.jobId());
    var live = operator.get(at);
    assertThat(secret.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getName()).isEqualTo(at.name());
              assertThat(owner.getUid()).isEqualTo(live.getMetadata().getUid());
            });

    // Every container of every role reads both variables from the Secret; the job object holds
    // no value.
    var json = io.fabric8.kubernetes.client.utils.Serialization.asJson(live);
    assertThat(json).doesNotContain("tym_secret-value");
    var containers = containers(live.getAdditionalProperties());
    assertThat(containers).hasSize(2); // master and worker templates
    for (var container : containers) {
      @SuppressWarnings("unchecked")
      var env = (List<Map<String, Object>>) container.get("env");
      for (var key : ENV.keySet()) {
        assertThat(env)
            .anySatisfy(
                e -> {
                  assertThat(e.get("name")).isEqualTo(key);
                  assertThat(e.get("valueFrom"))
                      .isEqualTo(
                          Map.of(
                              "secretKeyRef",
                              Map.of("name", GatewaySecret.name(at.name()), "key", key)));
                });
      }
    }

    operator.succeeded(at);
    backend.cleanup(ref);
    assertThat(
            cluster
                .client()
                .secrets()
                .inNamespace(at.namespace())
                .withName(GatewaySecret.name(at.name()))
                .get())
        .isNull();
    backend.cleanup(ref); // idempotent
  }

  @Test
  void withoutGatewayValuesThereIsNoSecretAndNoReference() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    assertThat(cluster.client().secrets().inNamespace(at.namespace()).list().getItems()).isEmpty();
    var json = io.fabric8.kubernetes.client.utils.Serialization.asJson(operator.get(at));
    assertThat(json).doesNotContain("secretKeyRef");
    assertThat(backend.deliversGatewaySecrets()).isTrue();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> containers(Object node) {
    var found = new ArrayList<Map<String, Object>>();
    if (node instanceof Map<?, ?> map) {
      var list = map.get("containers");
      if (list instanceof List<?> items) {
        items.forEach(i -> found.add((Map<String, Object>) i));
      }
      map.values().forEach(v -> found.addAll(containers(v)));
    } else if (node instanceof List<?> list) {
      list.forEach(v -> found.addAll(containers(v)));
    }
    return found;
  }
}
