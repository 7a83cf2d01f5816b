package io.trainyard.backend.sagemaker;

import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Why a spec cannot run on SageMaker whatever the instance type, in words for the quote table.
 * Pure; used by placements and again at submit.
 */
final class SageMakerSpecChecks {
  private static final Pattern CHANNEL_NAME = Pattern.compile("[A-Za-z0-9.\\-_]{1,64}");

  private final SageMakerConfig config;

  SageMakerSpecChecks(SageMakerConfig config) {
    this.config = config;
  }

  List<String> reasonsAgainst(JobSpec spec) {
    var reasons = new ArrayList<String>();
    reasons.addAll(KubernetesOnly.reasons(spec));
    framework(spec, reasons);
    unmappedSecrets(spec, reasons);
    container(spec, reasons);
    storage(spec, reasons);
    return reasons;
  }

  /**
   * Paddle and JAX jobs rely on the rendezvous variables the Kubeflow training operator's PaddleJob
   * and JAXJob set (PADDLE_MASTER, PADDLE_NNODES; COORDINATOR_ADDRESS, NUM_PROCESSES, PROCESS_ID);
   * SageMaker sets none of them.
   */
  static void framework(JobSpec spec, List<String> reasons) {
    var framework = spec.framework();
    if (framework == Framework.PADDLE || framework == Framework.JAX) {
      reasons.add(
          "framework "
              + framework
              + ": SageMaker has no distribution that sets up a "
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
                if (config.secretArn(ref).isEmpty()) {
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
              + " maps no Secrets Manager ARN for it (secrets: in its configuration), so SageMaker"
              + " cannot deliver it");
    }
  }

  private static void container(JobSpec spec, List<String> reasons) {
    var roles = spec.roleSpecs();
    var withoutImage = roles.stream().filter(r -> r.image() == null).map(RoleSpec::name).toList();
    if (!withoutImage.isEmpty()) {
      reasons.add(
          "SageMaker runs container images, and role "
              + String.join(", ", withoutImage)
              + " has none (spec.image)");
      return;
    }
    var first = roles.get(0);
    for (var role : roles.subList(1, roles.size())) {
      var differs = first.containerDifferences(role);
      if (!differs.isEmpty()) {
        reasons.add(
            "SageMaker runs one container definition on every instance, but roles "
                + first.name()
                + " and "
                + role.name()
                + " differ in "
                + String.join(", ", differs));
      }
    }
  }

  private void storage(JobSpec spec, List<String> reasons) {
    for (var input : spec.inputs()) {
      if (input.uri() == null || !input.uri().startsWith("s3://")) {
        reasons.add(
            "input "
                + input.name()
                + " is "
                + input.uri()
                + ": SageMaker channels read from S3 (s3://) only");
      } else if (input.name() == null || !CHANNEL_NAME.matcher(input.name()).matches()) {
        reasons.add(
            "input name "
                + input.name()
                + " is not a SageMaker channel name (letters, digits, . - _; at most 64)");
      }
    }
    var output = spec.output() == null ? null : spec.output().uri();
    if (output == null && config.outputPath() == null) {
      reasons.add(
          "SageMaker needs an S3 output: set spec.output.uri, or outputPath in backend "
              + config.id());
    } else if (output != null && !output.startsWith("s3://")) {
      reasons.add("output " + output + " is not s3://: SageMaker uploads the model to S3 only");
    }
    var checkpoint = spec.checkpoint() == null ? null : spec.checkpoint().uri();
    if (checkpoint != null && !checkpoint.startsWith("s3://")) {
      reasons.add(
          "checkpoint " + checkpoint + " is not s3://: SageMaker syncs checkpoints with S3 only");
    }
  }
}
