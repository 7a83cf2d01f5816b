package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.InstanceShapes;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ARM bodies as pure functions of spec, placement and block. */
class AzureMlJobMapperTest {
  private static final String ENV_ID = "/subscriptions/s/environments/e/versions/1";

  @SuppressWarnings("unchecked")
  private static Map<String, Object> body(AzureMlConfig config, String specYaml, boolean spot) {
    var spec = TestJobs.spec(specYaml);
    var placement =
        new AzureMlPlacements(config, InstanceShapes.NONE)
            .propose(spec).placements().stream()
                .filter(p -> p.spot() == spot)
                .findFirst()
                .orElseThrow();
    var job = TestJobs.job(spec, placement);
    return (Map<String, Object>)
        new AzureMlJobMapper(config).job(job, placement, ENV_ID).get("properties");
  }

  @Test
  @SuppressWarnings("unchecked")
  void tensorflowBecomesWorkersAndParameterServers() {
    var body =
        body(
            TestJobs.serverless(""),
            """
            framework: tensorflow
            image: tf:2
            command: [python, t.py]
            replicas: {chief: 1, ps: 2, worker: 3}
            placement: {spot: never}
            """,
            false);

    assertThat((Map<String, Object>) body.get("distribution"))
        .containsEntry("distributionType", "TensorFlow")
        .containsEntry("workerCount", 4)
        .containsEntry("parameterServerCount", 2);
    assertThat((Map<String, Object>) body.get("resources")).containsEntry("instanceCount", 6);
    assertThat((Map<String, Object>) body.get("queueSettings"))
        .containsEntry("jobTier", "Standard");
  }

  @Test
  @SuppressWarnings("unchecked")
  void mpiRunsOneNodePerWorkerWithProcessesPerNode() {
    var body =
        body(
            TestJobs.serverless(""),
            """
            framework: mpi
            image: horovod:1
            command: [python, h.py]
            resources: {gpus: 4, gpuType: nvidia-t4}
            replicas: {launcher: 1, worker: 2}
            roles: {launcher: {resources: {gpus: 4, gpuType: nvidia-t4}}}
            processesPerReplica: 4
            """,
            true);

    assertThat((Map<String, Object>) body.get("distribution"))
        .containsEntry("distributionType", "Mpi")
        .containsEntry("processCountPerInstance", 4);
    assertThat((Map<String, Object>) body.get("resources"))
        .containsEntry("instanceCount", 2)
        .containsEntry("instanceType", "Standard_NC64as_T4_v3");
    assertThat((Map<String, Object>) body.get("environmentVariables"))
        .containsEntry("TRAINYARD_REPLICAS", "worker-0,worker-1")
        .containsEntry("TRAINYARD_PROCESSES_PER_REPLICA", "4");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aSecretArrivesAsItsKeyVaultUriAndTheIdentityIsTheBlocks() {
    var uri = "https://ml-kv.vault.azure.net/secrets/wandb-api-key";
    var body =
        body(
            TestJobs.serverless("secrets: {wandb/api-key: '" + uri + "'}\njobIdentity: Managed\n"),
            """
            framework: pytorch
            image: bert:1
            command: [python, train.py]
            secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
            replicas: {master: 1}
            maxRuntime: 90m
            """,
            false);

    assertThat((Map<String, Object>) body.get("environmentVariables"))
        .containsEntry("WANDB_API_KEY_KEYVAULT_SECRET_URI", uri)
        .doesNotContainKey("WANDB_API_KEY");
    assertThat((Map<String, Object>) body.get("identity")).containsEntry("identityType", "Managed");
    assertThat((Map<String, Object>) body.get("limits")).containsEntry("timeout", "PT1H30M");
    assertThat(body).doesNotContainKeys("inputs", "outputs");
    assertThat(body.get("environmentId")).isEqualTo(ENV_ID);
  }

  @Test
  @SuppressWarnings("unchecked")
  void withoutMaxRuntimeTheBlocksDefaultIsTheTimeout() {
    var body =
        body(
            TestJobs.serverless("defaultMaxRuntime: 12h\n"),
            "framework: pytorch\nimage: b:1\ncommand: [x]\nreplicas: {master: 1}\n",
            false);

    assertThat((Map<String, Object>) body.get("limits")).containsEntry("timeout", "PT12H");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theJobObjectsLabelsBecomeTagsBesideOurs() {
    var spec =
        "framework: pytorch\nimage: b:1\ncommand: [x]\nreplicas: {master: 1}\n"
            + "kubernetes:\n  jobLabels: {kueue.x-k8s.io/queue-name: team-a, project: churn}\n  jobAnnotations: {vendor.example/auto-resume: \"true\"}\n";
    var body = body(TestJobs.serverless(""), spec, false);

    var tags = (Map<String, Object>) body.get("tags");
    assertThat(tags)
        .containsEntry("kueue.x-k8s.io/queue-name", "team-a")
        .containsEntry("project", "churn")
        .containsEntry(AzureMlJobMapper.TAG_TEAM, "nlp");
    var notes = AzureMlJobMapper.leftOut(TestJobs.spec(spec));
    assertThat(notes)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("vendor.example/auto-resume")
        .contains("not used");
  }

  @Test
  void anEnvironmentIsNamedAfterItsImage() {
    var a = AzureMlJobMapper.environment("reg.azurecr.io/bert:1.4");
    var again = AzureMlJobMapper.environment("reg.azurecr.io/bert:1.4");
    var other = AzureMlJobMapper.environment("reg.azurecr.io/bert:1.5");

    assertThat(a).isEqualTo(again);
    assertThat(a.name()).isNotEqualTo(other.name()).matches("trainyard-[0-9a-f]{24}");
    assertThat(a.version()).isEqualTo("1");
  }

  @Test
  void wordsAreShellQuotedSoTheCommandRunsAsWritten() {
    assertThat(AzureMlJobMapper.quote("train.py")).isEqualTo("train.py");
    assertThat(AzureMlJobMapper.quote("--lr=0.1")).isEqualTo("--lr=0.1");
    assertThat(AzureMlJobMapper.quote("two words")).isEqualTo("'two words'");
    assertThat(AzureMlJobMapper.quote("it's")).isEqualTo("'it'\"'\"'s'");
    assertThat(AzureMlJobMapper.quote("$HOME")).isEqualTo("'$HOME'");
    assertThat(AzureMlJobMapper.quote("a;rm -rf /")).isEqualTo("'a;rm -rf /'");
    assertThat(AzureMlJobMapper.quote("")).isEqualTo("''");
  }
}
