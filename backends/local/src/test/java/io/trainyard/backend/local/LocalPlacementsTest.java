package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.JobSpec;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LocalPlacementsTest {
  private final LocalConfig config =
      new LocalConfig("laptop", "home", false, null, new BigDecimal("0.10"), null, null, 3, null);
  private final LocalPlacements placements = new LocalPlacements(config);

  @Test
  void aCpuJobWithACommandGetsOnePlacementWithEveryRole() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            image: python:3.11-slim
            command: [python3, train.py]
            replicas: {master: 1, worker: 2}
            resources: {cpus: 2, memory: 1Gi}
            """);

    var proposals = placements.propose(spec, 2);

    assertThat(proposals.rejections()).isEmpty();
    assertThat(proposals.placements()).hasSize(1);
    var p = proposals.placements().get(0);
    assertThat(p.backendId()).isEqualTo("laptop");
    assertThat(p.provider()).isEqualTo("local");
    assertThat(p.service()).isEqualTo("local");
    assertThat(p.region()).isEqualTo("home");
    assertThat(p.spot()).isFalse();
    assertThat(p.operatorUsdPerHour()).isEqualByComparingTo("0.10");
    assertThat(p.freeCapacity()).isEqualTo(2);
    assertThat(p.lines()).hasSize(1);
    var line = p.lines().get(0);
    assertThat(line.roles()).containsExactly("master", "worker");
    assertThat(line.instanceType()).isEqualTo("localhost");
    assertThat(line.count()).isEqualTo(1);
    assertThat(line.gpus()).isZero();
    assertThat(line.gpuType()).isNull();
    assertThat(p.notes())
        .containsExactly(
            "image python:3.11-slim is recorded but not run: replicas run `command` as local"
                + " processes");
  }

  @ParameterizedTest
  @CsvSource({"jax, worker", "paddle, worker", "xgboost, worker", "tensorflow, worker"})
  void severalProcessesPerReplicaAreOnlyForTorchAndMpi(String framework, String role) {
    var spec =
        TestJobs.spec(
            "framework: "
                + framework
                + "\ncommand: [python3, train.py]\nreplicas: {"
                + (framework.equals("xgboost") ? "master: 1, " : "")
                + role
                + ": 2}\nprocessesPerReplica: 4\n");
    assertThat(reasons(spec))
        .containsExactly(
            "spec.processesPerReplica: a "
                + framework
                + " job runs one process per replica; ask for more replicas instead");
    var torch =
        TestJobs.spec(
            "framework: pytorch\ncommand: [torchrun, t.py]\nreplicas: {master: 1}\n"
                + "processesPerReplica: 4\n");
    assertThat(placements.propose(torch, 1).rejections()).isEmpty();
  }

  @Test
  void aGpuJobIsRejected() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            resources: {gpus: 1, gpuType: nvidia-t4}
            """);

    assertThat(reasons(spec)).containsExactly("the local backend has no GPUs");
  }

  @Test
  void whatTheHostNeverHasIsNeverAndAFullHostIsNotNow() {
    var gpu =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            resources: {gpus: 1, gpuType: nvidia-t4}
            """);
    assertThat(placements.propose(gpu, 2).rejections())
        .extracting(io.trainyard.spi.Rejection::kind)
        .containsOnly(io.trainyard.spi.Rejection.Kind.NEVER);
    // The same GPU job on a full host is still "never": waiting would not give it a GPU.
    assertThat(placements.propose(gpu, 0).rejections())
        .extracting(io.trainyard.spi.Rejection::kind)
        .containsOnly(io.trainyard.spi.Rejection.Kind.NEVER);

    var cpu =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            """);
    var full = placements.propose(cpu, 0);
    assertThat(full.placements()).isEmpty();
    assertThat(full.rejections())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(io.trainyard.spi.Rejection.Kind.NOT_NOW);
              assertThat(r.reason()).startsWith("no free job slot");
            });
  }

  @Test
  void anElasticJobMeetingAtItsOwnStoreIsRejectedAndLabelsAreOnlyNoted() {
    var etcd =
        TestJobs.spec(
            """
            framework: pytorch
            command: [torchrun, train.py]
            replicas: {worker: 2}
            elastic: {minReplicas: 1, maxReplicas: 3, rdzvBackend: etcd, rdzvHost: etcd-client,
                      rdzvPort: 2379}
            """);
    assertThat(reasons(etcd))
        .containsExactly(
            "spec.elastic.rdzvHost: the job meets at its own rendezvous store etcd-client, which"
                + " local replicas cannot reach (they have no network beyond their own loopback)");

    var labelled =
        TestJobs.spec(
            """
            framework: pytorch
            command: [torchrun, train.py]
            replicas: {worker: 2}
            kubernetes: {jobLabels: {project: p}, jobAnnotations: {a: b}}
            """);
    assertThat(placements.propose(labelled, 1).placements().get(0).notes())
        .contains(
            "spec.kubernetes.jobLabels and jobAnnotations are not used: local processes have none");
  }

  @Test
  void aJobNeedingKubernetesIsRejected() {
    var podTemplate =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            kubernetes: {podTemplate: {nodeSelector: {pool: cpu}}}
            """);
    var volumes =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            volumes: [{name: shared, claim: data-pvc, mountPath: /mnt}]
            """);

    assertThat(reasons(podTemplate))
        .singleElement()
        .asString()
        .contains("spec.kubernetes.podTemplate", "nodeSelector", "only Kubernetes");
    assertThat(reasons(volumes))
        .singleElement()
        .asString()
        .contains("spec.volumes", "only Kubernetes");
  }

  @Test
  void mpiOperatorV2SettingsAreRejectedAndTheirDefaultsNoted() {
    var intel =
        TestJobs.spec(
            """
            framework: mpi
            command: [mpirun, hostname]
            replicas: {launcher: 1, worker: 2}
            kubernetes: {mpi: {implementation: Intel}}
            """);
    var openMpi =
        TestJobs.spec(
            """
            framework: mpi
            command: [mpirun, hostname]
            replicas: {launcher: 1, worker: 2}
            kubernetes: {mpi: {implementation: OpenMPI, sshAuthMountPath: /root/.ssh}}
            """);

    assertThat(reasons(intel))
        .singleElement()
        .asString()
        .contains("spec.kubernetes.mpi sets implementation", "MPI Operator v2");
    assertThat(placements.propose(openMpi, 1).placements().get(0).notes())
        .contains(
            "spec.kubernetes.mpi is at the MPI Operator's defaults: the local backend runs Open MPI"
                + " with a hostfile and no SSH");
  }

  @Test
  void aPodTemplateOfOneRoleOnlyIsRejectedToo() {
    var roleOnly =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1, worker: 1}
            roles: {worker: {kubernetes: {podTemplate: {tolerations: [{key: gpu, operator: Exists}]}}}}
            """);
    assertThat(reasons(roleOnly))
        .singleElement()
        .asString()
        .contains("spec.kubernetes.podTemplate sets tolerations", "only Kubernetes");
  }

  @Test
  void aJobWithoutACommandIsRejected() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            image: registry.example.com/train:1
            replicas: {master: 1, worker: 1}
            """);

    assertThat(reasons(spec))
        .containsExactly("needs spec.command: the local backend runs commands, not images");
  }

  @Test
  void aRoleWithoutACommandIsNamed() {
    var spec =
        TestJobs.spec(
            """
            framework: tensorflow
            replicas: {chief: 1, worker: 1}
            roles: {chief: {command: [python3, chief.py]}}
            """);

    assertThat(reasons(spec)).singleElement().asString().startsWith("role worker needs a command");
  }

  @Test
  void everyReasonIsGivenAtOnce() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            image: registry.example.com/train:1
            replicas: {master: 1}
            resources: {gpus: 8, gpuType: nvidia-a100-40gb}
            kubernetes: {podTemplate: {tolerations: []}}
            """);

    assertThat(reasons(spec)).hasSize(3);
  }

  private java.util.List<String> reasons(JobSpec spec) {
    var proposals = placements.propose(spec, 1);
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .allSatisfy(r -> assertThat(r.backendId()).isEqualTo("laptop"));
    return proposals.rejections().stream().map(Rejection::reason).toList();
  }
}
