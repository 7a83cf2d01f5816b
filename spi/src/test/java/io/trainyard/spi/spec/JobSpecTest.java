package io.trainyard.spi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSpecTest {
  private final TrainingJob job = Specs.resource("full-spec.yaml");

  @Test
  void everyFieldOfTheDesignExampleIsRead() {
    var spec = job.spec();
    assertThat(job.metadata().labels()).containsEntry("project", "sentiment");
    assertThat(spec.framework()).isEqualTo(Framework.PYTORCH);
    assertThat(spec.secretEnv()).containsEntry("WANDB_API_KEY", new SecretRef("wandb", "api-key"));
    assertThat(spec.resources()).isEqualTo(new Resources(1, "nvidia-a100-40gb", 8.0, "32Gi"));
    assertThat(spec.replicas()).containsExactly(Map.entry("master", 1), Map.entry("worker", 2));
    assertThat(spec.elastic()).isEqualTo(new Elastic(2, 4, 5));
    assertThat(spec.estimatedHours()).isEqualByComparingTo("3");
    assertThat(spec.maxRuntimeDuration()).contains(Duration.ofHours(6));
    assertThat(spec.cleanup()).isEqualTo(new Cleanup(CleanPodPolicy.RUNNING, "1h"));
    assertThat(spec.inputs()).containsExactly(new Input("train", "s3://ml-data/imdb/"));
    assertThat(spec.volumes()).containsExactly(new Volume("shared", "data-pvc", "/mnt"));
    assertThat(spec.deepspeed()).containsKey("zero_optimization");
    assertThat(spec.placement().regions()).containsExactly("us-east-1", "europe-west4");
    assertThat(spec.placement().effectiveSpot()).isEqualTo(SpotPolicy.ALLOWED);
    assertThat(spec.placement().maxHourlyUsd()).isEqualByComparingTo(new BigDecimal(40));
    assertThat(spec.dataClassification()).isEqualTo(DataClassification.PHI);
    assertThat(spec.kubernetes().podTemplate()).containsKeys("nodeSelector", "tolerations");
    assertThat(spec.needsKubernetes()).isTrue();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
  }

  @Test
  void roleOverridesMergeOverTheDefaults() {
    var roles = job.spec().roleSpecs();
    assertThat(roles).extracting(RoleSpec::name).containsExactly("master", "worker");
    var master = roles.get(0);
    var worker = roles.get(1);
    assertThat(master.resources()).isEqualTo(new Resources(1, "nvidia-a100-40gb", 8.0, "32Gi"));
    // The override names no gpuType, so the default's carries over.
    assertThat(worker.resources()).isEqualTo(new Resources(1, "nvidia-a100-40gb", 4.0, "16Gi"));
    assertThat(worker.env())
        .containsEntry("ROLE", "worker")
        .containsEntry("HF_DATASETS_OFFLINE", "1");
    assertThat(master.env()).doesNotContainKey("ROLE");
    assertThat(worker.image()).isEqualTo("registry.example.com/bert-finetune:1.4");
    assertThat(worker.command()).isEqualTo(List.of("python", "train.py"));
    assertThat(job.spec().totalReplicas()).isEqualTo(3);
    assertThat(job.spec().totalGpus()).isEqualTo(3);
  }

  @Test
  void aSpecsRolesAreWorkedOutOncePerThreadAndAreEachSpecsOwn() throws Exception {
    var spec = job.spec();
    var other =
        Specs.parse(
                """
                apiVersion: trainyard.io/v1
                kind: TrainingJob
                metadata: {name: tf}
                spec: {framework: tensorflow, image: i, replicas: {worker: 2, chief: 1}}
                """)
            .spec();
    var roles = spec.roleSpecs();
    assertThat(spec.roleSpecs()).isSameAs(roles); // asked again: not merged again
    assertThat(other.roleSpecs()).extracting(RoleSpec::name).containsExactly("chief", "worker");
    assertThat(spec.roleSpecs()).isNotSameAs(roles).isEqualTo(roles);
    // An equal spec is another object: its roles are its own, equal ones.
    var copy = Specs.parse(Specs.YAML.writeValueAsString(job)).spec();
    assertThat(copy.roleSpecs()).isEqualTo(roles);
    var elsewhere = new java.util.concurrent.atomic.AtomicReference<List<RoleSpec>>();
    var thread = new Thread(() -> elsewhere.set(spec.roleSpecs()));
    thread.start();
    thread.join();
    assertThat(elsewhere.get()).isEqualTo(roles);
    assertThat(roles).isUnmodifiable();
  }

  @Test
  void rolesComeInRankOrderWhateverTheDocumentOrder() {
    var tf =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: tf}
            spec: {framework: tensorflow, image: i, replicas: {worker: 2, ps: 1, chief: 1}}
            """);
    assertThat(tf.spec().roleSpecs())
        .extracting(RoleSpec::name)
        .containsExactly("chief", "ps", "worker");
  }

  @Test
  void aSpecWritesBackToTheSameDocument() throws Exception {
    var json = Specs.YAML.writeValueAsString(job);
    assertThat(Specs.parse(json)).isEqualTo(job);
  }

  @Test
  void roleKubernetesOptionsMergeOverTheDefaultsByTopLevelKey() {
    var role = perRoleKubernetes().spec().roleSpecs();
    var master = role.get(0).kubernetes();
    var worker = role.get(1).kubernetes();
    assertThat(master.podTemplate())
        .containsOnlyKeys("nodeSelector", "tolerations")
        .containsEntry("nodeSelector", Map.of("pool", "cpu"));
    // The worker's nodeSelector replaces the default's whole; tolerations stay the default's.
    assertThat(worker.podTemplate())
        .containsEntry("nodeSelector", Map.of("pool", "a100"))
        .containsKeys("tolerations", "volumes");
    assertThat(master.scheduling()).isEqualTo(worker.scheduling());
    assertThat(worker.scheduling().minResources()).containsEntry("nvidia.com/gpu", "8");
    assertThat(role.get(1).secretEnv())
        .containsExactly(
            Map.entry("WANDB_API_KEY", new SecretRef("wandb", "api-key")),
            Map.entry("HF_TOKEN", new SecretRef("hf", "token")));
    assertThat(role.get(0).secretEnv()).containsOnlyKeys("WANDB_API_KEY");
  }

  @Test
  void perRoleKubernetesOptionsWriteBackToTheSameDocument() throws Exception {
    var job = perRoleKubernetes();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(Specs.parse(Specs.YAML.writeValueAsString(job))).isEqualTo(job);
  }

  @Test
  void aRoleOnlyPodTemplateStillNeedsKubernetes() {
    var job =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: tf}
            spec:
              framework: tensorflow
              image: i
              replicas: {chief: 1, worker: 2}
              roles: {worker: {kubernetes: {podTemplate: {nodeSelector: {pool: gpu}}}}}
            """);
    assertThat(job.spec().kubernetes()).isNull();
    assertThat(job.spec().needsKubernetes()).isTrue();
    assertThat(job.spec().roleSpecs().get(0).kubernetes()).isEqualTo(KubernetesOptions.NONE);
  }

  @Test
  void envKeepsTheDocumentOrder() {
    var names = new java.util.ArrayList<String>();
    for (int i = 0; i < 20; i++) {
      names.add("VAR_" + (char) ('Z' - i));
    }
    var env = new java.util.LinkedHashMap<String, String>();
    names.forEach(n -> env.put(n, "x"));
    var spec =
        new JobSpec(
            Framework.PYTORCH,
            "i",
            null,
            null,
            env,
            null,
            null,
            null,
            Map.of("master", 1),
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    // Kubernetes expands $(VAR) only from earlier variables, so order is part of the meaning.
    assertThat(spec.env().keySet()).containsExactlyElementsOf(names);
    assertThat(spec.roleSpecs().get(0).env().keySet()).containsExactlyElementsOf(names);
  }

  private static TrainingJob perRoleKubernetes() {
    return Specs.parse(
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: per-role}
        spec:
          framework: pytorch
          image: i
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
          replicas: {master: 1, worker: 4}
          roles:
            worker:
              secretEnv: {HF_TOKEN: {secret: hf, key: token}}
              kubernetes:
                podTemplate:
                  nodeSelector: {pool: a100}
                  volumes: [{name: dshm, emptyDir: {medium: Memory}}]
          kubernetes:
            podTemplate:
              nodeSelector: {pool: cpu}
              tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
            scheduling: {minAvailable: 5, queue: research, minResources: {nvidia.com/gpu: "8"}}
        """);
  }

  @Test
  void quantitiesAndDurations() {
    assertThat(Quantities.bytes("32Gi")).isEqualTo(32L << 30);
    assertThat(Quantities.bytes("1.5Gi")).isEqualTo(3L << 29);
    assertThat(Quantities.bytes("500M")).isEqualTo(500_000_000L);
    assertThat(Quantities.bytes("1024")).isEqualTo(1024L);
    assertThat(Quantities.duration("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Quantities.duration("2d")).isEqualTo(Duration.ofDays(2));
    assertThat(Quantities.duration("45s")).isEqualTo(Duration.ofSeconds(45));
  }
}
