package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.kubeflow.KubeflowWriter.RenderOptions;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KubeflowWriterTest {
  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  /** Specs as users write them, one per framework, each using what its kind can express. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: llama-sft}
        spec:
          framework: pytorch
          image: registry.example.com/sft:3
          command: [torchrun, sft.py]
          env: {NCCL_DEBUG: WARN, DATA: /data}
          secretEnv: {HF_TOKEN: {secret: hf, key: token}}
          resources: {gpus: 8, cpus: 96, memory: 1100Gi}
          replicas: {master: 1, worker: 3}
          roles:
            worker:
              restartPolicy: OnFailure
              secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
              kubernetes: {podTemplate: {tolerations: [{key: spot, operator: Exists}]}}
          processesPerReplica: 8
          elastic: {minReplicas: 2, maxReplicas: 4, maxRestarts: 3, rdzvBackend: c10d}
          maxRuntime: 1d12h
          maxRestarts: 2
          cleanup: {pods: all, ttlAfterFinished: 30m}
          kubernetes:
            podTemplate: {nodeSelector: {pool: h100}, priorityClassName: batch}
            scheduling: {minAvailable: 4, queue: llm}
            jobLabels: {project: chat, kueue.x-k8s.io/queue-name: llm}
            jobAnnotations: {example.com/auto-resume: "true"}
        """,
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: tf-ps}
        spec:
          framework: tensorflow
          image: tf:2.15
          args: [--steps, "100"]
          resources: {cpus: 0.25, memory: 512Mi}
          restartPolicy: Never
          replicas: {chief: 1, ps: 1, worker: 2, evaluator: 1}
          roles:
            ps: {resources: {cpus: 1.5}}
            worker: {resources: {gpus: 1}, image: tf:2.15-gpu}
        """,
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: mpi}
        spec:
          framework: mpi
          image: horovod:0.28
          command: [mpirun, python, train.py]
          replicas: {launcher: 1, worker: 4}
          roles: {worker: {command: [/usr/sbin/sshd, -De], resources: {gpus: 4}}}
          processesPerReplica: 4
        """,
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: xgb}
        spec:
          framework: xgboost
          image: xgb:1.7
          replicas: {master: 1, worker: 2}
          maxRuntime: 2h
        """
      })
  void aSpecWrittenAndReadBackIsTheSameSpec(String yaml) {
    var job = spec(yaml);
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    var rendered = writer.write(job);
    assertThat(crd.check(rendered)).isEmpty();
    var back = reader.read(rendered);
    assertThat(back.warnings()).isEmpty();
    assertThat(back.job()).isEqualTo(job);
  }

  @Test
  void aHandWrittenSpecComesBackEquivalentWhenItsDefaultsAreNotTheCommonValues() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: odd}
        spec:
          framework: pytorch
          image: worker-image
          replicas: {master: 1, worker: 1}
          roles: {master: {image: master-image}}
        """);
    var back = reader.read(writer.write(job)).job();
    // The reader makes the first type's value the default on a tie; the replicas are the same.
    assertThat(back.spec().image()).isEqualTo("master-image");
    assertThat(back.spec().roleSpecs()).isEqualTo(job.spec().roleSpecs());
  }

  @Test
  void renderOptionsNameTheObjectAndAddLabelsThatWinOverTheJobLabels() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: demo, labels: {not-on: the-object}}
        spec:
          framework: xgboost
          image: i
          replicas: {master: 1}
          kubernetes:
            jobLabels: {project: p, owner: me}
            jobAnnotations: {example.com/auto-resume: "true"}
        """);
    var rendered =
        writer.write(
            job,
            new RenderOptions(
                "ty-01hzx-a1", "nlp-jobs", Map.of("trainyard.io/job-id", "01hzx", "owner", "gw")));
    assertThat(rendered.get("metadata"))
        .isEqualTo(
            TestDocuments.yaml(
                "{name: ty-01hzx-a1, namespace: nlp-jobs, labels: {project: p, owner: gw,"
                    + " trainyard.io/job-id: 01hzx},"
                    + " annotations: {example.com/auto-resume: 'true'}}"));
    assertThat(writer.write(job).get("metadata"))
        .isEqualTo(
            TestDocuments.yaml(
                "{name: demo, labels: {project: p, owner: me},"
                    + " annotations: {example.com/auto-resume: 'true'}}"));
  }

  @Test
  void specVolumesAreMountedInEveryReplicaAndReadBackAsThePodTemplate() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: vols}
        spec:
          framework: pytorch
          image: i
          replicas: {master: 1, worker: 1}
          volumes: [{name: shared, claim: data-pvc, mountPath: /mnt}]
          kubernetes: {podTemplate: {volumes: [{name: dshm, emptyDir: {medium: Memory}}]}}
        """);
    var rendered = writer.write(job);
    assertThat(crd.check(rendered)).isEmpty();
    for (var type : new String[] {"Master", "Worker"}) {
      var pod = rendered.at("/spec/pytorchReplicaSpecs/" + type + "/template/spec");
      assertThat(pod.get("volumes"))
          .isEqualTo(
              TestDocuments.yaml(
                  "[{name: dshm, emptyDir: {medium: Memory}}, {name: shared,"
                      + " persistentVolumeClaim: {claimName: data-pvc}}]"));
      assertThat(pod.at("/containers/0/volumeMounts"))
          .isEqualTo(TestDocuments.yaml("[{name: shared, mountPath: /mnt}]"));
    }
    // The same pods, described as pod-template content: rendering that again changes nothing.
    var back = reader.read(rendered).job();
    assertThat(back.spec().volumes()).isEmpty();
    assertThat(writer.write(back)).isEqualTo(rendered);
  }

  @Test
  void whatAKindCannotExpressIsRefusedNamingTheSpecField() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: tf}
        spec: {framework: tensorflow, image: i, replicas: {worker: 2}, processesPerReplica: 4}
        """);
    assertThat(KubeflowWriter.unsupported(job.spec()))
        .containsExactly(
            new FieldError(
                "spec.processesPerReplica",
                "a tensorflow job on Kubernetes runs one process per replica"));
    assertThatThrownBy(() -> writer.write(job)).isInstanceOf(KubeflowConversionException.class);
  }

  @Test
  void aJaxOrPaddleJobRunsOneProcessPerPod() {
    for (var framework : List.of("jax", "paddle")) {
      var job =
          spec(
              """
          apiVersion: trainyard.io/v1
          kind: TrainingJob
          metadata: {name: one}
          spec: {framework: %s, image: i, replicas: {worker: 2}, processesPerReplica: 4}
          """
                  .formatted(framework));
      assertThat(KubeflowWriter.unsupported(job.spec()))
          .containsExactly(
              new FieldError(
                  "spec.processesPerReplica",
                  "a " + framework + " job on Kubernetes runs one process per replica"));
    }
  }

  @Test
  void thePodTemplateCannotSetWhatTheSpecSets() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: shadow}
        spec:
          framework: pytorch
          image: i
          replicas: {master: 1, worker: 1}
          roles:
            worker:
              kubernetes: {podTemplate: {containers: [{name: sidecar, image: s}, {name: pytorch, image: other}]}}
        """);
    assertThat(KubeflowWriter.unsupported(job.spec()))
        .extracting(FieldError::field)
        .containsExactly("spec.roles.worker.kubernetes.podTemplate.containers[1].image");
  }

  @Test
  void routingFieldsAreNotPartOfTheObject() {
    var job =
        spec(
            """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: routed}
        spec:
          framework: xgboost
          image: i
          replicas: {master: 1}
          estimatedHours: 2
          placement: {policy: cheapest, regions: [us-east-1]}
          compliance: {dataClassification: phi}
        """);
    assertThat(TestDocuments.text(writer.write(job)))
        .doesNotContain("estimatedHours", "placement", "us-east-1", "phi");
  }

  private static TrainingJob spec(String yaml) {
    try {
      return TestDocuments.SPECS.readValue(yaml, TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
