package io.trainyard.spi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KubernetesOnlyTest {

  @Test
  void aPlainSpecNeedsNoKubernetes() {
    var job =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: plain}
            spec: {framework: pytorch, image: i, replicas: {master: 1}}
            """);
    assertThat(KubernetesOnly.reasons(job.spec())).isEmpty();
  }

  @Test
  void volumesPodTemplateFieldsAndGangSchedulingEachGiveAReason() {
    var job =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: k8s}
            spec:
              framework: pytorch
              image: i
              replicas: {master: 1, worker: 2}
              volumes: [{name: data, claim: data-pvc, mountPath: /mnt}]
              kubernetes:
                podTemplate: {priorityClassName: batch}
                scheduling: {minAvailable: 3}
            """);
    assertThat(KubernetesOnly.reasons(job.spec()))
        .containsExactly(
            "spec.volumes mounts PersistentVolumeClaims, which only Kubernetes backends can do",
            "spec.kubernetes.podTemplate sets priorityClassName, which only Kubernetes backends"
                + " can honour",
            "spec.kubernetes.scheduling asks for gang scheduling, which only Kubernetes does");
  }

  @Test
  void aTrainJobsRuntimeAloneRunsAnywhereItsOtherPartsOnlyOnTrainer() {
    var runtimeOnly =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: tj}
            spec:
              framework: pytorch
              image: i
              replicas: {master: 1}
              kubernetes: {trainJob: {runtimeRef: {name: torch-distributed}}}
            """);
    assertThat(KubernetesOnly.reasons(runtimeOnly.spec())).isEmpty();
    assertThat(runtimeOnly.spec().needsKubernetes()).isFalse();

    var withInitializer =
        Specs.parse(
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: tj}
            spec:
              framework: pytorch
              image: i
              replicas: {master: 1}
              kubernetes:
                trainJob:
                  runtimeRef: {name: torch-distributed}
                  initializer: {dataset: {storageUri: 'hf://x/y'}}
            """);
    assertThat(KubernetesOnly.reasons(withInitializer.spec()))
        .containsExactly(
            "spec.kubernetes.trainJob carries the TrainJob's initializer, which only a Kubeflow"
                + " Trainer cluster (flavor trainer-v2) can honour");
    assertThat(withInitializer.spec().needsKubernetes()).isTrue();
  }
}
