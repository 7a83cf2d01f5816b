package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pods are kept when a job ends, until the gateway has archived their logs; cleanup then gives the
 * operator back the job's own settings.
 */
class PodCleanupIT extends CrudServerTest {

  @Test
  void theJobsOwnCleanupIsHeldBackThenRestored() {
    var ref = submit(job(SPEC + "cleanup: {pods: all, ttlAfterFinished: 10m}\n"));
    var at = Attempt.of(ref);
    assertThat(runPolicy(operator.get(at)))
        .containsEntry("cleanPodPolicy", "None")
        .doesNotContainKey("ttlSecondsAfterFinished");
    assertThat(operator.get(at).getMetadata().getAnnotations())
        .containsEntry(PodCleanup.CLEAN_POD_POLICY, "All")
        .containsEntry(PodCleanup.TTL_SECONDS, "600");

    operator.created(at);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    operator.succeeded(at);
    backend.cleanup(ref);

    assertThat(runPolicy(operator.get(at)))
        .containsEntry("cleanPodPolicy", "All")
        .containsEntry("ttlSecondsAfterFinished", 600);
    backend.cleanup(ref); // idempotent
    assertThat(runPolicy(operator.get(at))).containsEntry("cleanPodPolicy", "All");
  }

  @Test
  void settingsTheJobLeftUnsetGoBackToTheOperatorsDefaults() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    assertThat(runPolicy(operator.get(at))).containsEntry("cleanPodPolicy", "None");
    operator.succeeded(at);
    backend.cleanup(ref);
    // A merge patch's null removes the field on a real API server; the CRUD server keeps a null.
    var restored = runPolicy(operator.get(at));
    assertThat(restored.get("cleanPodPolicy")).isNull();
    assertThat(restored.get("ttlSecondsAfterFinished")).isNull();
  }

  @Test
  void cleaningUpAnObjectAlreadyGoneIsNotAnError() {
    var ref = submit(job(SPEC));
    operator.delete(Attempt.of(ref));
    backend.cleanup(ref);
    assertThat(backend.keepsLogs()).isFalse();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> runPolicy(GenericKubernetesResource job) {
    var spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
    return (Map<String, Object>) spec.getOrDefault("runPolicy", Map.of());
  }
}
