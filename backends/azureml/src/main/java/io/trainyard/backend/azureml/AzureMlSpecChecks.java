package io.trainyard.backend.azureml;

import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Why a spec cannot run as an Azure ML command job whatever the VM size, in words for the quote
 * table. Pure; used by placements and again at submit.
 */
final class AzureMlSpecChecks {
  // Azure ML job input/output names: letters, digits and underscores, starting with a letter.
  private static final Pattern DATA_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]{0,254}");
  private static final Pattern BLOB_URL =
      Pattern.compile("https://[a-z0-9]{3,24}\\.blob\\.core\\.windows\\.net/.+");

  private final AzureMlConfig config;

  AzureMlSpecChecks(AzureMlConfig config) {
    this.config = config;
  }

  List<String> reasonsAgainst(JobSpec spec) {
    var reasons = new ArrayList<String>();
    reasons.addAll(KubernetesOnly.reasons(spec));
    reasons.addAll(AzureMlTopology.reasonsAgainst(spec));
    unmappedSecrets(spec, reasons);
    container(spec, reasons);
    storage(spec, reasons);
    return reasons;
  }

  /** Whether a URI is one Azure ML can mount: {@code azureml://} or a Blob storage URL. */
  static boolean isAzureStorage(String uri) {
    return uri != null && (uri.startsWith("azureml://") || BLOB_URL.matcher(uri).matches());
  }

  private void unmappedSecrets(JobSpec spec, List<String> reasons) {
    var unmapped = new LinkedHashSet<String>();
    for (var role : spec.roleSpecs()) {
      role.secretEnv()
          .forEach(
              (name, ref) -> {
                if (config.secretUri(ref).isEmpty()) {
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
              + " maps no Key Vault secret for it (secrets: in its configuration), so Azure ML"
              + " cannot deliver it");
    }
  }

  private static void container(JobSpec spec, List<String> reasons) {
    var roles = spec.roleSpecs();
    var withoutImage = roles.stream().filter(r -> r.image() == null).map(RoleSpec::name).toList();
    if (!withoutImage.isEmpty()) {
      reasons.add(
          "an Azure ML environment is built from a container image, and role "
              + String.join(", ", withoutImage)
              + " has none (spec.image)");
      return;
    }
    var withoutCommand =
        roles.stream().filter(r -> r.command().isEmpty()).map(RoleSpec::name).toList();
    if (!withoutCommand.isEmpty()) {
      reasons.add(
          "an Azure ML command job runs a command, and role "
              + String.join(", ", withoutCommand)
              + " has none (spec.command): the image's entrypoint is not run");
    }
    var first = roles.get(0);
    for (var role : roles.subList(1, roles.size())) {
      var differs = first.containerDifferences(role);
      if (!differs.isEmpty()) {
        reasons.add(
            "an Azure ML command job runs one command and environment on every node, but roles "
                + first.name()
                + " and "
                + role.name()
                + " differ in "
                + String.join(", ", differs));
      }
    }
  }

  private static void storage(JobSpec spec, List<String> reasons) {
    for (var input : spec.inputs()) {
      if (!isAzureStorage(input.uri())) {
        reasons.add(
            "input "
                + input.name()
                + " is "
                + input.uri()
                + ": Azure ML mounts azureml:// and https://<account>.blob.core.windows.net/ URIs"
                + " only");
      } else if (input.name() == null || !DATA_NAME.matcher(input.name()).matches()) {
        reasons.add(
            "input name "
                + input.name()
                + " is not an Azure ML input name (letters, digits and _, starting with a"
                + " letter or _)");
      } else if (input.name().equals("checkpoint")) {
        reasons.add("input name checkpoint is taken by spec.checkpoint on Azure ML");
      }
    }
    var output = spec.output() == null ? null : spec.output().uri();
    if (output != null && !isAzureStorage(output)) {
      reasons.add(
          "output "
              + output
              + " is not azureml:// or a Blob storage URL: Azure ML writes outputs there only");
    }
    var checkpoint = spec.checkpoint() == null ? null : spec.checkpoint().uri();
    if (checkpoint != null && !isAzureStorage(checkpoint)) {
      reasons.add(
          "checkpoint "
              + checkpoint
              + " is not azureml:// or a Blob storage URL: Azure ML mounts those only");
    }
  }
}
