package io.trainyard.spi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobSpecValidatorTest {
  private static final String VALID =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: demo}
      spec:
        framework: pytorch
        image: python:3.11
        command: [python3, train.py]
        replicas: {master: 1, worker: 2}
      """;

  private final JobSpecValidator validator = new JobSpecValidator();

  @org.junit.jupiter.api.Test
  void anImageLongerThanAnyReferenceIsRefused() {
    var errors =
        validator.validate(
            Specs.parse(apply("spec.image: " + "a".repeat(InputLimits.MAX_IMAGE_CHARS + 1))));
    assertThat(errors).anySatisfy(e -> assertThat(e.field()).isEqualTo("spec.image"));
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          apiVersion: trainyard.io/v2                                  | apiVersion                      | must be trainyard.io/v1
          kind: PyTorchJob                                             | kind                            | must be TrainingJob
          metadata: {name: Demo_Job}                                   | metadata.name                   | not a DNS-1123 label
          metadata: {name: -demo}                                      | metadata.name                   | not a DNS-1123 label
          metadata: {name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa} | metadata.name | at most 63
          metadata: {labels: {a: b}}                                   | metadata.name                   | is required
          metadata: {generateName: Bert-}                              | metadata.generateName           | start of a DNS-1123 label
          metadata: {generateName: -bert}                              | metadata.generateName           | start of a DNS-1123 label
          metadata: {name: demo, team: NLP}                            | metadata.team                   | not a DNS-1123 label
          spec.replicas: {master: 0}                                   | spec.replicas.master            | at least 1
          spec.replicas: {master: 1, worker: -2}                       | spec.replicas.worker            | at least 1
          spec.replicas: {master: 2}                                   | spec.replicas.master            | has one master
          spec.replicas: {chief: 1}                                    | spec.replicas.chief             | unknown role 'chief' for pytorch
          spec.replicas: {}                                            | spec.replicas                   | is required
          spec.roles: {launcher: {image: x}}                           | spec.roles.launcher             | unknown role
          spec.resources: {gpus: 2, gpuType: ''}                       | spec.resources.gpuType          | must not be empty
          spec.resources: {gpus: -1}                                   | spec.resources.gpus             | between 0 and 64
          spec.resources: {cpus: 0}                                    | spec.resources.cpus             | from 0.001 (a millicore)
          spec.resources: {cpus: '1e-31'}                              | spec.resources.cpus             | from 0.001 (a millicore)
          spec.image: "py\u00a0thon:3"                                  | spec.image                      | printable ASCII
          spec.image: "py\u202ethon:3"                                  | spec.image                      | printable ASCII
          spec.image: "\ufeffpython:3"                                  | spec.image                      | printable ASCII
          spec.resources: {memory: lots}                               | spec.resources.memory           | not a memory quantity
          spec.env: {1BAD: x}                                          | spec.env.1BAD                   | not a valid environment variable name
          spec.secretEnv: {TOKEN: {secret: My_Secret, key: k}}         | spec.secretEnv.TOKEN.secret     | not a valid secret name
          spec.maxRuntime: soon                                        | spec.maxRuntime                 | not a duration
          spec.maxRuntime: 0s                                          | spec.maxRuntime                 | longer than 0
          spec.maxRestarts: -1                                         | spec.maxRestarts                | 0 or more
          spec.estimatedHours: 0                                       | spec.estimatedHours             | greater than 0
          spec.processesPerReplica: 0                                  | spec.processesPerReplica        | at least 1
          spec.elastic: {minReplicas: 4, maxReplicas: 2}               | spec.elastic.minReplicas        | must not exceed maxReplicas
          spec.checkpoint: {uri: no-scheme}                            | spec.checkpoint.uri             | absolute URI
          spec.inputs: [{name: a, uri: 's3://x/'}, {name: a, uri: 's3://y/'}] | spec.inputs[1].name     | used twice
          spec.volumes: [{name: v, claim: pvc, mountPath: relative}]   | spec.volumes[0].mountPath       | absolute path
          spec.placement: {policy: pinned}                             | spec.placement.backends         | exactly one backend
          spec.placement: {maxHourlyUsd: -3}                           | spec.placement.maxHourlyUsd     | greater than 0
          spec.image: null                                             | spec.image                      | is required
          spec.roles: {worker: {secretEnv: {T: {secret: Bad_Name, key: k}}}} | spec.roles.worker.secretEnv.T.secret | not a valid secret name
          spec.roles: {worker: {env: {T: x}, secretEnv: {T: {secret: s, key: k}}}} | spec.roles.worker.secretEnv.T | also set in env
          spec.roles: {worker: {kubernetes: {scheduling: {queue: q}}}}  | spec.roles.worker.kubernetes.scheduling | job-wide
          spec.kubernetes: {scheduling: {minAvailable: 0}}             | spec.kubernetes.scheduling.minAvailable | at least 1
          spec.kubernetes: {trainJob: {runtime: torch}}                | spec.kubernetes.trainJob.runtime | not a TrainJob field Trainyard carries; one of annotations, initializer
          spec.roles: {worker: {kubernetes: {trainJob: {managedBy: x}}}} | spec.roles.worker.kubernetes.trainJob | job-wide
          spec.kubernetes: {scheduling: {priorityClass: High_Prio}}    | spec.kubernetes.scheduling.priorityClass | PriorityClass name
          spec.kubernetes: {scheduling: {scheduleTimeoutSeconds: 0}}   | spec.kubernetes.scheduling.scheduleTimeoutSeconds | at least 1
          spec.cleanup: {ttlAfterFinished: soon}                       | spec.cleanup.ttlAfterFinished   | not a duration
          spec.elastic: {maxReplicas: 2, rdzvBackend: ''}              | spec.elastic.rdzvBackend        | must not be empty
          spec.elastic: {maxReplicas: 2, rdzvBackend: etcd, rdzvHost: 'etcd:2379'} | spec.elastic.rdzvHost | no port
          spec.elastic: {maxReplicas: 2, rdzvBackend: etcd, rdzvHost: etcd, rdzvPort: 70000} | spec.elastic.rdzvPort | 1 to 65535
          spec.elastic: {maxReplicas: 2, rdzvConf: {timeout: '9,0'}}  | spec.elastic.rdzvConf.timeout   | without ','
          spec.elastic: {maxReplicas: 2, metrics: [{resource: {name: cpu}}]} | spec.elastic.metrics[0]  | with a type
          spec.elastic: {minReplicas: 1, metrics: [{type: Resource}]}  | spec.elastic.maxReplicas        | required with metrics
          spec.kubernetes: {jobLabels: {team/a/b: x}}                  | spec.kubernetes.jobLabels.team/a/b | not a valid label key
          spec.kubernetes: {jobLabels: {project: 'two words'}}         | spec.kubernetes.jobLabels.project | must be a label value
          spec.kubernetes: {jobAnnotations: {'bad key': x}}            | spec.kubernetes.jobAnnotations.bad key | not a valid annotation key
          spec.roles: {worker: {kubernetes: {jobLabels: {a: b}}}}      | spec.roles.worker.kubernetes.jobLabels | job-wide
          spec.priority: 1001                                          | spec.priority                   | between 0 and 1000
          spec.priority: -1                                            | spec.priority                   | between 0 and 1000
          spec.algorithm: Bert@3                                       | spec.algorithm                  | must be [team/]name[@version]
          spec.algorithm: nlp/bert@0                                   | spec.algorithm                  | must be [team/]name[@version]
          spec.algorithm: a/b/c                                        | spec.algorithm                  | must be [team/]name[@version]
          spec.hyperparameters: {lr: 0.1}                              | spec.hyperparameters            | set spec.algorithm
          spec.hyperparameters: {layers: [1, 2]}                       | spec.hyperparameters.layers     | a number, a string or a boolean
          spec.placement: {within: 1.5}                                | spec.placement.within           | only to policy cheapest-within
          spec.placement: {policy: cheapest-within, within: 0.9}       | spec.placement.within           | between 1
          spec.placement: {spotNeedsCheckpointAfter: soon}             | spec.placement.spotNeedsCheckpointAfter | not a duration
          """)
  void refusesWithTheFieldNamed(String change, String field, String message) {
    if (change.startsWith("spec.image: \"")) {
      change = change.translateEscapes();
    }
    var errors = validator.validate(Specs.parse(apply(change)));
    assertThat(errors)
        .anySatisfy(
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.message()).contains(message);
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          spec.replicas: {master: 1}
          spec.resources: {gpus: 1, gpuType: nvidia-t4, cpus: 0.5, memory: 512Mi}
          spec.resources: {gpus: 2}
          spec.cleanup: {pods: all, ttlAfterFinished: 0s}
          spec.elastic: {minReplicas: 1, maxReplicas: 3, maxRestarts: 2, rdzvBackend: c10d}
          spec.elastic: {minReplicas: 1, maxReplicas: 3, rdzvBackend: etcd, rdzvHost: etcd-client.ml.svc, rdzvPort: 2379, rdzvId: run-7, rdzvConf: {protocol: https}, metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]}
          spec.roles: {worker: {secretEnv: {TOKEN: {secret: hf, key: token}}, kubernetes: {podTemplate: {nodeSelector: {pool: gpu}}}}}
          spec.kubernetes: {scheduling: {minAvailable: 3, queue: research, minResources: {cpu: '8'}, priorityClass: high, scheduleTimeoutSeconds: 600}}
          spec.maxRuntime: 1h30m
          spec.kubernetes: {jobLabels: {kueue.x-k8s.io/queue-name: user-queue}, jobAnnotations: {example.com/auto-resume: 'true', note: 'any text, even: this'}}
          spec.placement: {policy: pinned, backends: [local]}
          spec.roles: {worker: {command: [python3, w.py], resources: {cpus: 2}}}
          metadata: {name: a, team: nlp, labels: {app.kubernetes.io/name: bert}}
          metadata: {generateName: bert-imdb-}
          spec.priority: 0
          spec.priority: 1000
          spec.algorithm: bert-classifier
          spec.algorithm: nlp/bert-classifier@3
          spec.algorithm: bert-classifier@default
          spec.placement: {policy: cheapest-within, within: 1.2}
          spec.placement: {policy: fastest, spotNeedsCheckpointAfter: 30m}
          """)
  void acceptsValidVariants(String change) {
    assertThat(validator.validate(Specs.parse(apply(change)))).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void mpiNeedsALauncherAndTensorflowOneChief() {
    var mpi =
        VALID
            .replace("framework: pytorch", "framework: mpi")
            .replace("{master: 1, worker: 2}", "{worker: 2}");
    assertThat(validator.validate(Specs.parse(mpi)))
        .extracting(FieldError::field)
        .containsExactly("spec.replicas.launcher");
    var tf =
        VALID
            .replace("framework: pytorch", "framework: tensorflow")
            .replace("{master: 1, worker: 2}", "{chief: 2, worker: 2}");
    assertThat(validator.validate(Specs.parse(tf)))
        .extracting(FieldError::field)
        .containsExactly("spec.replicas.chief");
  }

  @org.junit.jupiter.api.Test
  void paddleHasMastersAndWorkersAndJaxOnlyWorkers() {
    var paddle =
        VALID
            .replace("framework: pytorch", "framework: paddle")
            .replace("{master: 1, worker: 2}", "{master: 2, worker: 4}");
    assertThat(validator.validate(Specs.parse(paddle))).isEmpty();
    var collective =
        VALID
            .replace("framework: pytorch", "framework: paddle")
            .replace("{master: 1, worker: 2}", "{worker: 2}");
    assertThat(validator.validate(Specs.parse(collective))).isEmpty();
    var jax = VALID.replace("framework: pytorch", "framework: jax");
    assertThat(validator.validate(Specs.parse(jax)))
        .containsExactly(
            new FieldError("spec.replicas.master", "unknown role 'master' for jax; one of worker"));
    assertThat(
            validator.validate(Specs.parse(jax.replace("{master: 1, worker: 2}", "{worker: 8}"))))
        .isEmpty();
  }

  @org.junit.jupiter.api.Test
  void reportsEveryProblemAtOnce() {
    var errors =
        validator.validate(
            Specs.parse(
                apply("metadata: {name: Bad}")
                    .replace("{master: 1, worker: 2}", "{master: 0, worker: 0}")));
    assertThat(errors)
        .extracting(FieldError::field)
        .contains("metadata.name", "spec.replicas.master", "spec.replicas.worker");
  }

  /** Replaces one top-level or spec-level line of the valid document. */
  private static String apply(String change) {
    var colon = change.indexOf(':');
    var key = change.substring(0, colon).trim();
    var value = change.substring(colon + 1).trim();
    if (key.startsWith("spec.")) {
      var field = key.substring("spec.".length());
      var lines = VALID.lines().filter(l -> !l.startsWith("  " + field + ":")).toList();
      return String.join("\n", lines) + "\n  " + field + ": " + value + "\n";
    }
    return VALID.lines().filter(l -> !l.startsWith(key + ":")).reduce("", (a, b) -> a + b + "\n")
        + key
        + ": "
        + value
        + "\n";
  }
}
