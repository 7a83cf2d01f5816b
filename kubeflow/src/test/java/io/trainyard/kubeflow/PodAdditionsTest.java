package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.kubeflow.KubeflowWriter.RenderOptions;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodAdditionsTest {
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  private static final TrainingJob JOB =
      spec(
          """
          apiVersion: trainyard.io/v1
          kind: TrainingJob
          metadata: {name: pooled}
          spec:
            framework: pytorch
            image: i
            env: {A: "1"}
            replicas: {master: 1, worker: 2}
            kubernetes:
              podTemplate:
                nodeSelector: {pool: user-choice, zone: a}
                tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          """);

  @Test
  void eachRoleGetsItsOwnPoolsSelectorAndTolerationsAndTheSharedFiles() {
    var files =
        new PodAdditions(
            null,
            null,
            List.of(Map.of("name", "ds", "configMap", Map.of("name", "ty-x-a1-deepspeed"))),
            List.of(Map.of("name", "ds", "mountPath", "/etc/trainyard/deepspeed")),
            Map.of("DEEPSPEED_CONFIG", "/etc/trainyard/deepspeed/ds_config.json"));
    var gpuPool =
        new PodAdditions(
            Map.of("pool", "a10g"),
            List.of(
                Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule"),
                Map.of("key", "spot", "operator", "Exists")),
            null,
            null,
            null);
    var cpuPool = new PodAdditions(Map.of("pool", "cpu"), null, null, null, null);
    var rendered =
        writer.write(
            JOB,
            new RenderOptions(
                null,
                null,
                null,
                Map.of("master", cpuPool.plus(files), "worker", gpuPool.plus(files))));

    assertThat(crd.check(rendered)).isEmpty();
    var master = rendered.at("/spec/pytorchReplicaSpecs/Master/template/spec");
    var worker = rendered.at("/spec/pytorchReplicaSpecs/Worker/template/spec");
    // The chosen pool's labels win over the user's key of the same name; other keys stay.
    assertThat(master.get("nodeSelector")).isEqualTo(TestDocuments.yaml("{pool: cpu, zone: a}"));
    assertThat(worker.get("nodeSelector")).isEqualTo(TestDocuments.yaml("{pool: a10g, zone: a}"));
    // A toleration the template already has is not repeated.
    assertThat(worker.get("tolerations"))
        .isEqualTo(
            TestDocuments.yaml(
                "[{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule},"
                    + " {key: spot, operator: Exists}]"));
    for (var pod : List.of(master, worker)) {
      assertThat(pod.get("volumes"))
          .isEqualTo(TestDocuments.yaml("[{name: ds, configMap: {name: ty-x-a1-deepspeed}}]"));
      assertThat(pod.at("/containers/0/volumeMounts"))
          .isEqualTo(TestDocuments.yaml("[{name: ds, mountPath: /etc/trainyard/deepspeed}]"));
      assertThat(pod.at("/containers/0/env"))
          .isEqualTo(
              TestDocuments.yaml(
                  "[{name: A, value: '1'}, {name: DEEPSPEED_CONFIG,"
                      + " value: /etc/trainyard/deepspeed/ds_config.json}]"));
    }
  }

  @Test
  void noAdditionsRenderTheSameDocument() {
    assertThat(writer.write(JOB, new RenderOptions(null, null, null, Map.of())))
        .isEqualTo(writer.write(JOB));
  }

  private static TrainingJob spec(String yaml) {
    try {
      return TestDocuments.SPECS.readValue(yaml, TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
