package io.trainyard.backend.vertex;

import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Why a spec cannot run on Vertex whatever the machine, in words for the quote table. Pure; used by
 * placements and again at submit.
 */
final class VertexSpecChecks {
  private final VertexConfig config;

  VertexSpecChecks(VertexConfig config) {
    this.config = config;
  }

  List<String> reasonsAgainst(JobSpec spec) {
    var reasons = new ArrayList<String>(KubernetesOnly.reasons(spec));
    framework(spec, reasons);
    unmappedSecrets(spec, reasons);
    var withoutImage =
        spec.roleSpecs().stream().filter(r -> r.image() == null).map(RoleSpec::name).toList();
    if (!withoutImage.isEmpty()) {
      reasons.add(
          "Vertex runs container images, and role "
              + String.join(", ", withoutImage)
              + " has none (spec.image)");
    }
    var output = spec.output() == null ? null : spec.output().uri();
    if (output != null && !output.startsWith("gs://")) {
      reasons.add(
          "output " + output + " is not gs://: Vertex's base output directory is Cloud Storage");
    }
    return reasons;
  }

  /**
   * Paddle and JAX jobs rely on the rendezvous variables the Kubeflow training operator's PaddleJob
   * and JAXJob set (PADDLE_MASTER, PADDLE_NNODES; COORDINATOR_ADDRESS, NUM_PROCESSES, PROCESS_ID);
   * Vertex AI sets none of them.
   */
  static void framework(JobSpec spec, List<String> reasons) {
    var framework = spec.framework();
    if (framework == Framework.PADDLE || framework == Framework.JAX) {
      reasons.add(
          "framework "
              + framework
              + ": Vertex AI has no distribution that sets up a "
              + framework
              + " job's rendezvous (the training operator's "
              + (framework == Framework.PADDLE ? "PADDLE_* variables" : "COORDINATOR_* variables")
              + "); run it on a Kubernetes or local backend");
    }
  }

  private void unmappedSecrets(JobSpec spec, List<String> reasons) {
    var unmapped = new LinkedHashSet<String>();
    for (var role : spec.roleSpecs()) {
      role.secretEnv()
          .forEach(
              (name, ref) -> {
                if (config.secretVersion(ref).isEmpty()) {
                  unmapped.add(name + " (" + ref.secret() + "/" + ref.key() + ")");
                }
              });
    }
    if (!unmapped.isEmpty()) {
      reasons.add(
          "secretEnv "
              + String.join(", ", unmapped)
              + ": backend "
              + config.id()
              + " maps no Secret Manager version for it (secrets: in its configuration), so Vertex"
              + " cannot deliver it");
    }
  }
}
