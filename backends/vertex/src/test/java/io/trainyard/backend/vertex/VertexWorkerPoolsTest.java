package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VertexWorkerPoolsTest {

  /** Roles by pool position; empty positions between used ones stay empty. */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          pytorch    | {master: 1, worker: 3}                     | master:1:0,worker:3:0
          pytorch    | {worker: 4}                                | worker:1:0,worker:3:1
          pytorch    | {worker: 1}                                | worker:1:0
          tensorflow | {chief: 1, ps: 2, worker: 4, evaluator: 1}  | chief:1:0,worker:4:0,ps:2:0,evaluator:1:0
          tensorflow | {chief: 1, ps: 1}                          | chief:1:0,,ps:1:0
          tensorflow | {ps: 2, worker: 2}                         | worker:1:0,worker:1:1,ps:2:0
          mpi        | {launcher: 1, worker: 2}                   | launcher:1:0,worker:2:0
          xgboost    | {master: 1, worker: 2}                     | master:1:0,worker:2:0
          """)
  void rolesFillVertexsPoolPositions(String framework, String replicas, String pools) {
    var spec = TestJobs.spec("framework: " + framework + "\nimage: x:1\nreplicas: " + replicas);

    assertThat(VertexWorkerPools.of(spec).encode()).isEqualTo(pools);
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource({
    "'worker:1:0,worker:3:1', worker-0, workerpool0-0",
    "'worker:1:0,worker:3:1', worker-3, workerpool1-2",
    "'chief:1:0,,ps:2:0', ps-1, workerpool2-1",
    "'master:1:0,worker:2:0', worker-2, ''",
  })
  void replicasAreVertexTasks(String pools, String replica, String task) {
    assertThat(VertexWorkerPools.taskIn(pools, replica).orElse("")).isEqualTo(task);
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource({
    "'worker:1:0,worker:3:1', workerpool0-0, worker-0",
    "'worker:1:0,worker:3:1', workerpool1-2, worker-3",
    "'chief:1:0,,ps:2:0', workerpool2-1, ps-1",
    "'chief:1:0,,ps:2:0', workerpool1-0, ''",
    "'master:1:0,worker:2:0', workerpool1-2, ''",
    "'master:1:0,worker:2:0', workerpool9-0, ''",
    "'master:1:0,worker:2:0', chief-0, ''",
    "'', workerpool0-0, ''",
  })
  void vertexTasksAreOurReplicas(String pools, String task, String replica) {
    assertThat(VertexWorkerPools.replicaOf(pools, task).orElse("")).isEqualTo(replica);
  }
}
