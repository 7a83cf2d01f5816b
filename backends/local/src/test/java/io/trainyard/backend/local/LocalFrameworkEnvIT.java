package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real python3 replicas of JAX and Paddle jobs print the environment the training operator would
 * give their pods (training-operator v1.9.0, pkg/controller.v1/{jax,paddlepaddle}/envvar.go).
 */
class LocalFrameworkEnvIT {
  private static final String PRINT_ENV =
      "import os\\n"
          + "for k in sorted(os.environ):\\n"
          + "    if k.startswith(('COORDINATOR_', 'NUM_PROCESSES', 'PROCESS_ID', 'PADDLE_',"
          + " 'POD_IP_DUMMY')):\\n"
          + "        print(k + '=' + os.environ[k])\\n";

  @TempDir Path temp;
  private LocalBackendRig rig;

  @BeforeEach
  void open() {
    rig = new LocalBackendRig(temp);
  }

  @AfterEach
  void stopEverything() {
    rig.close();
  }

  @Test
  void jaxWorkersSeeWorkerZeroAsTheCoordinator() throws Exception {
    var ref = run("jax", "worker: 2");

    var worker0 = env(ref, "worker-0");
    var worker1 = env(ref, "worker-1");
    assertThat(worker0)
        .containsEntry("COORDINATOR_ADDRESS", "127.0.0.1")
        .containsEntry("NUM_PROCESSES", "2")
        .containsEntry("PROCESS_ID", "0")
        .containsKey("COORDINATOR_PORT");
    assertThat(worker1)
        .containsEntry("COORDINATOR_ADDRESS", "127.0.0.1")
        .containsEntry("COORDINATOR_PORT", worker0.get("COORDINATOR_PORT"))
        .containsEntry("NUM_PROCESSES", "2")
        .containsEntry("PROCESS_ID", "1");
  }

  @Test
  void paddleServersAndTrainersShareMasterZerosEndpoint() throws Exception {
    var ref = run("paddle", "master: 1, worker: 2");

    var master = env(ref, "master-0");
    assertThat(master.get("PADDLE_MASTER")).startsWith("127.0.0.1:");
    assertThat(master)
        .containsEntry("PADDLE_NNODES", "3")
        .containsEntry("PADDLE_SERVER_NUM", "1")
        .containsEntry("POD_IP_DUMMY", "127.0.0.1")
        .containsKey("PADDLE_JOB_ID")
        .doesNotContainKey("PADDLE_TRAINER_NUM");
    for (var worker : List.of("worker-0", "worker-1")) {
      assertThat(env(ref, worker))
          .containsEntry("PADDLE_MASTER", master.get("PADDLE_MASTER"))
          .containsEntry("PADDLE_JOB_ID", master.get("PADDLE_JOB_ID"))
          .containsEntry("PADDLE_NNODES", "3")
          .containsEntry("PADDLE_TRAINER_NUM", "1")
          .doesNotContainKeys("PADDLE_SERVER_NUM", "POD_IP_DUMMY");
    }
  }

  private ExternalRef run(String framework, String replicas) {
    var spec =
        TestJobs.spec(
            "framework: "
                + framework
                + "\ncommand: [python3, -c, \""
                + PRINT_ENV
                + "\"]\nreplicas: {"
                + replicas
                + "}\n");
    var ref = rig.submit(TestJobs.job(spec));
    var status = rig.awaitEnd(ref);
    assertThat(status.phase()).as(status.reason()).isEqualTo(BackendPhase.SUCCEEDED);
    return ref;
  }

  private Map<String, String> env(ExternalRef ref, String replica) throws InterruptedException {
    var env = new TreeMap<String, String>();
    for (var line : rig.texts(ref, replica)) {
      var eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return env;
  }
}
