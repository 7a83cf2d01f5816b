package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.identity.ClientSecretCredential;
import com.azure.identity.DefaultAzureCredential;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.spec.SecretRef;
import java.time.Duration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AzureMlConfigTest {
  private static final String BASE =
      """
      type: azureml
      region: eastus
      subscriptionId: 00000000-0000-0000-0000-000000000001
      resourceGroup: ml
      workspace: trainyard-ws
      storageAccount: trainyardws
      """;

  @Test
  void aMinimalBlockIsServerlessWithTheTableSizesAndDefaults() {
    var config = TestJobs.config(BASE);

    assertThat(config.id()).isEqualTo("azureml");
    assertThat(config.serverless()).isTrue();
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.discountPct()).isZero();
    assertThat(config.vmSizes())
        .extracting(AzureMlVmSize::size)
        .containsExactlyElementsOf(AzureVmSizes.DEFAULT_SIZES)
        .contains("Standard_D8s_v5", "Standard_E8s_v5", "Standard_NC24ads_A100_v4");
    assertThat(config.experimentName()).isEqualTo("trainyard");
    assertThat(config.defaultMaxRuntimeDuration()).isEqualTo(Duration.ofHours(24));
    assertThat(config.armBase()).isEqualTo("https://management.azure.com");
    assertThat(config.blobEndpoint()).isEqualTo("https://trainyardws.blob.core.windows.net");
    assertThat(config.logsContainer()).isEqualTo("azureml");
    assertThat(config.maxRetries()).isEqualTo(3);
    assertThat(config.explicitCredential()).isFalse();
    assertThat(config.workspaceId())
        .isEqualTo(
            "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/ml/providers/"
                + "Microsoft.MachineLearningServices/workspaces/trainyard-ws");
  }

  @Test
  void bindsEveryFieldAsABackendBlockByType() throws Exception {
    var mapper = TestJobs.YAML.copy();
    mapper.registerSubtypes(AzureMlConfig.class);
    var block =
        mapper.readValue(
            BASE
                + """
                id: azureml-eus
                hipaaEligible: true
                discountPct: 12.5
                compute: gpu-cluster
                lowPriorityCompute: gpu-cluster-lp
                vmSizes:
                  - {size: Standard_NC48ads_A100_v4, vcpus: 48, memoryGiB: 440, gpuType: nvidia-a100-80gb, gpus: 2}
                experimentName: nlp
                defaultMaxRuntime: 12h
                secrets: {wandb/api-key: "https://ml-kv.vault.azure.net/secrets/wandb-api-key"}
                jobIdentity: Managed
                logsContainer: azureml-logs
                armEndpoint: https://management.usgovcloudapi.net
                authorityHost: https://login.microsoftonline.us
                storageEndpoint: https://trainyardws.blob.core.usgovcloudapi.net/
                tenantId: t
                clientId: c
                clientSecret: very-secret-value
                maxRetries: 1
                requestTimeout: 10s
                logPollInterval: 500ms
                """,
            BackendConfig.class);

    var config = (AzureMlConfig) block;
    assertThat(config.hipaaEligible()).isTrue();
    assertThat(config.discountPct()).isEqualByComparingTo("12.5");
    assertThat(config.serverless()).isFalse();
    assertThat(config.computeId("gpu-cluster"))
        .endsWith("/workspaces/trainyard-ws/computes/gpu-cluster");
    assertThat(config.vmSizes().get(0).declaredShape().gpus()).isEqualTo(2);
    assertThat(config.secretUri(new SecretRef("wandb", "api-key")))
        .contains("https://ml-kv.vault.azure.net/secrets/wandb-api-key");
    assertThat(config.secretUri(new SecretRef("wandb", "other"))).isEmpty();
    assertThat(config.blobEndpoint()).isEqualTo("https://trainyardws.blob.core.usgovcloudapi.net");
    assertThat(config.explicitCredential()).isTrue();
    assertThat(config.logPollDuration()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.requestTimeoutDuration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.toString()).doesNotContain("very-secret-value");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          region: ''                                   | region is required
          subscriptionId: ''                           | subscriptionId is required
          resourceGroup: ''                            | resourceGroup is required
          workspace: 'a b'                             | workspace must be
          storageAccount: Not_A_Name                   | storageAccount must be
          compute: gpu-cluster                         | vmSizes: with compute
          lowPriorityCompute: lp                       | lowPriorityCompute needs compute
          jobIdentity: Root                            | jobIdentity must be
          secrets: {wandb: 'https://kv.vault.azure.net/secrets/w'} | <secret>/<key>
          secrets: {wandb/k: plain}                    | secrets.wandb/k must be a Key Vault secret URI
          clientId: c                                  | tenantId, clientId and clientSecret go together
          armEndpoint: http://management.azure.com     | armEndpoint
          authorityHost: not a url                     | authorityHost
          defaultMaxRuntime: soon                      | defaultMaxRuntime
          logPollInterval: often                       | logPollInterval
          maxRetries: -1                               | maxRetries
          vmSizes: [NC24ads_A100_v4]                   | Standard_
          discountPct: 120                             | discountPct
          """)
  void refusesNonsenseNamingTheField(String line, String message) {
    // A later key replaces an earlier one in the block, so BASE's values can be overridden.
    var yaml = BASE.replaceAll("(?m)^" + line.split(":")[0] + ":.*\\n", "") + line + "\n";

    assertThatThrownBy(() -> TestJobs.config(yaml)).hasMessageContaining(message);
  }

  @Test
  void withoutCredentialSettingsTheFactoryBuildsTheDefaultChain() {
    var http = JdkAzureHttpClient.standard(Duration.ofSeconds(1));

    var chain = AzureMlBackendFactory.credential(TestJobs.config(BASE), http);
    var principal =
        AzureMlBackendFactory.credential(
            TestJobs.config(BASE + "tenantId: t\nclientId: c\nclientSecret: s\n"), http);

    // Building a credential asks nothing of the network; only a token request would.
    assertThat(chain).isInstanceOf(DefaultAzureCredential.class);
    assertThat(principal).isInstanceOf(ClientSecretCredential.class);
  }

  @Test
  void theFactoryIsFoundByKind() {
    var factories =
        ServiceLoader.load(BackendFactory.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(factories)
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo("azureml");
              assertThat(f.configClass()).isEqualTo(AzureMlConfig.class);
            });
  }
}
