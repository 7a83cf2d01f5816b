package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.spi.spec.RestartPolicy;
import io.trainyard.spi.spec.SecretRef;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReplicaPlannerTest {
  private static final TypeReference<Map<String, Object>> JSON_MAP = new TypeReference<>() {};
  private static final Path DIR = Path.of("/data/backends/local/ty-x-a1");
  private final AtomicInteger ports = new AtomicInteger(40000);
  private final ReplicaPlanner planner = new ReplicaPlanner(ports::incrementAndGet);

  @Test
  void pytorchReplicasGetTheOperatorsEnvironmentRankedMasterFirst() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            args: [--epochs, "2"]
            env: {SHARED: "1", MODE: default}
            secretEnv: {TOKEN: {secret: wandb, key: api-key}}
            replicas: {worker: 2, master: 1}
            roles: {worker: {env: {MODE: worker}, restartPolicy: Never}}
            processesPerReplica: 4
            """);
    var job = TestJobs.job("01jobidjobidjobidjobidjobi", spec, "h");

    var plan = planner.plan(job, DIR);

    assertThat(plan.replicas())
        .extracting(ReplicaPlan::name)
        .containsExactly("master-0", "worker-0", "worker-1");
    assertThat(plan.replicas()).extracting(ReplicaPlan::rank).containsExactly(0, 1, 2);
    var worker1 = plan.replicas().get(2);
    assertThat(worker1.command()).containsExactly("python3", "train.py", "--epochs", "2");
    assertThat(worker1.restartPolicy()).isEqualTo(RestartPolicy.NEVER);
    assertThat(worker1.secretEnv()).containsEntry("TOKEN", new SecretRef("wandb", "api-key"));
    assertThat(worker1.env())
        .containsEntry("MASTER_ADDR", "127.0.0.1")
        .containsEntry("MASTER_PORT", "40001")
        .containsEntry("RANK", "2")
        .containsEntry("WORLD_SIZE", "3")
        .containsEntry("LOCAL_RANK", "0")
        .containsEntry("PET_NPROC_PER_NODE", "4")
        .containsEntry("PET_NNODES", "3")
        .containsEntry("PET_NODE_RANK", "2")
        .containsEntry("SHARED", "1")
        .containsEntry("MODE", "worker")
        .containsEntry("PYTHONUNBUFFERED", "1")
        .containsEntry("TRAINYARD_JOB_ID", "01jobidjobidjobidjobidjobi")
        .containsEntry("TRAINYARD_REPLICA", "worker-1")
        .containsEntry("TRAINYARD_ATTEMPT_DIR", DIR.toString())
        .doesNotContainKey("TOKEN");
    assertThat(plan.replicas().get(0).env())
        .containsEntry("MODE", "default")
        .containsEntry("MASTER_PORT", "40001");
    assertThat(plan.hostfile()).isNull();
  }

  @Test
  void jaxWorkersGetTheOperatorsCoordinatorVariablesWorkerZeroCoordinating() {
    var spec =
        TestJobs.spec(
            """
            framework: jax
            command: [python3, train.py]
            env: {NUM_PROCESSES: "9"}
            replicas: {worker: 3}
            """);

    var plan = planner.plan(TestJobs.job(spec), DIR);

    assertThat(plan.replicas())
        .extracting(ReplicaPlan::name)
        .containsExactly("worker-0", "worker-1", "worker-2");
    for (int i = 0; i < 3; i++) {
      assertThat(plan.replicas().get(i).env())
          .containsEntry("COORDINATOR_ADDRESS", "127.0.0.1")
          .containsEntry("COORDINATOR_PORT", "40001")
          .containsEntry("NUM_PROCESSES", "3")
          .containsEntry("PROCESS_ID", Integer.toString(i))
          .containsEntry("PYTHONUNBUFFERED", "1")
          .doesNotContainKeys("MASTER_ADDR", "RANK", "TF_CONFIG");
    }
  }

  @Test
  void paddleWorkersAloneRunCollectiveWithWorkerZeroAsTheEndpoint() {
    var spec =
        TestJobs.spec(
            """
            framework: paddle
            command: [python3, -m, paddle.distributed.launch, train.py]
            replicas: {worker: 2}
            """);
    var job = TestJobs.job(spec);

    var plan = planner.plan(job, DIR);

    var worker0 = plan.replicas().get(0).env();
    var worker1 = plan.replicas().get(1).env();
    for (var env : List.of(worker0, worker1)) {
      assertThat(env)
          .containsEntry("PADDLE_JOB_ID", job.objectName())
          .containsEntry("PADDLE_NNODES", "2")
          .containsEntry("PADDLE_MASTER", "127.0.0.1:40001")
          .doesNotContainKeys("PADDLE_SERVER_NUM", "PADDLE_TRAINER_NUM");
    }
    assertThat(worker0).containsEntry("POD_IP_DUMMY", "127.0.0.1");
    assertThat(worker1).doesNotContainKey("POD_IP_DUMMY");
  }

  @Test
  void paddleMastersMakeItParameterServerModeWithMasterZeroAsTheEndpoint() {
    var spec =
        TestJobs.spec(
            """
            framework: paddle
            command: [python3, train.py]
            replicas: {worker: 2, master: 2}
            """);

    var plan = planner.plan(TestJobs.job(spec), DIR);

    assertThat(plan.replicas())
        .extracting(ReplicaPlan::name)
        .containsExactly("master-0", "master-1", "worker-0", "worker-1");
    var envs = plan.replicas().stream().map(ReplicaPlan::env).toList();
    assertThat(envs)
        .allSatisfy(
            env ->
                assertThat(env)
                    .containsEntry("PADDLE_NNODES", "4")
                    .containsEntry("PADDLE_MASTER", "127.0.0.1:40001"));
    assertThat(envs.get(0)).containsEntry("POD_IP_DUMMY", "127.0.0.1");
    assertThat(envs.subList(1, 4))
        .allSatisfy(env -> assertThat(env).doesNotContainKey("POD_IP_DUMMY"));
    assertThat(envs.subList(0, 2))
        .allSatisfy(
            env ->
                assertThat(env)
                    .containsEntry("PADDLE_SERVER_NUM", "1")
                    .doesNotContainKey("PADDLE_TRAINER_NUM"));
    assertThat(envs.subList(2, 4))
        .allSatisfy(
            env ->
                assertThat(env)
                    .containsEntry("PADDLE_TRAINER_NUM", "1")
                    .doesNotContainKey("PADDLE_SERVER_NUM"));
  }

  @Test
  void anElasticJobWithoutItsOwnStoreGetsNoRendezvousEndpoint() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            command: [torchrun, train.py]
            replicas: {worker: 2}
            elastic: {minReplicas: 1, maxReplicas: 3, rdzvBackend: c10d}
            """);
    var env = planner.plan(TestJobs.job(spec), DIR).replicas().get(1).env();
    assertThat(env).doesNotContainKeys("PET_RDZV_ENDPOINT", "PET_RDZV_BACKEND");
    assertThat(env).containsEntry("PET_MASTER_ADDR", "127.0.0.1");
  }

  @Test
  void xgboostGetsMasterAddressAndRanks() {
    var spec =
        TestJobs.spec(
            """
            framework: xgboost
            command: [python3, train.py]
            replicas: {master: 1, worker: 1}
            """);

    var env = planner.plan(TestJobs.job(spec), DIR).replicas().get(1).env();

    assertThat(env)
        .containsEntry("MASTER_ADDR", "127.0.0.1")
        .containsEntry("MASTER_PORT", "40001")
        .containsEntry("RANK", "1")
        .containsEntry("WORLD_SIZE", "2")
        .doesNotContainKey("PET_NPROC_PER_NODE");
  }

  @Test
  void tensorflowGetsATfConfigWithOnePortPerReplica() throws Exception {
    var spec =
        TestJobs.spec(
            """
            framework: tensorflow
            command: [python3, train.py]
            replicas: {chief: 1, ps: 1, worker: 2, evaluator: 1}
            """);

    var plan = planner.plan(TestJobs.job(spec), DIR);

    assertThat(plan.replicas())
        .extracting(ReplicaPlan::name)
        .containsExactly("chief-0", "ps-0", "worker-0", "worker-1", "evaluator-0");
    var json = new ObjectMapper();
    var worker1 = json.readValue(plan.replicas().get(3).env().get("TF_CONFIG"), JSON_MAP);
    assertThat(worker1)
        .isEqualTo(
            Map.of(
                "cluster",
                Map.of(
                    "chief", List.of("127.0.0.1:40001"),
                    "ps", List.of("127.0.0.1:40002"),
                    "worker", List.of("127.0.0.1:40003", "127.0.0.1:40004")),
                "task",
                Map.of("type", "worker", "index", 1)));
    var evaluator = json.readValue(plan.replicas().get(4).env().get("TF_CONFIG"), JSON_MAP);
    assertThat(evaluator.get("task")).isEqualTo(Map.of("type", "evaluator", "index", 0));
    assertThat(evaluator.get("cluster")).isEqualTo(worker1.get("cluster"));
  }

  @Test
  void mpiGetsAHostfileWithEveryWorkerSlot() {
    var spec =
        TestJobs.spec(
            """
            framework: mpi
            command: [mpirun, python3, train.py]
            replicas: {launcher: 1, worker: 2}
            processesPerReplica: 2
            """);

    var plan = planner.plan(TestJobs.job(spec), DIR);

    assertThat(plan.hostfile()).isEqualTo("127.0.0.1 slots=4\n");
    assertThat(plan.replicas().get(0).env())
        .containsEntry("OMPI_MCA_orte_default_hostfile", DIR.resolve("hostfile").toString());
  }

  @Test
  void keepsTheRestartBudgetAndRuntime() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            command: [python3, train.py]
            replicas: {master: 1}
            maxRestarts: 3
            maxRuntime: 1h30m
            """);

    var plan = planner.plan(TestJobs.job(spec), DIR);

    assertThat(plan.maxRestarts()).isEqualTo(3);
    assertThat(plan.maxRuntime()).isEqualTo("1h30m");
    assertThat(plan.maxRuntimeDuration()).contains(java.time.Duration.ofMinutes(90));
  }
}
