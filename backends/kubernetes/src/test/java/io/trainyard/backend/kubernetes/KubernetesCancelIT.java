package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cancel deletes in the background, is idempotent, and loses to a job that already ended. */
class KubernetesCancelIT extends CrudServerTest {

  @Test
  void cancellingARunningJobDeletesItAndCancellingAgainIsHarmless() throws Exception {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    cluster.drainRequests();

    backend.cancel(ref);
    assertThat(operator.get(at)).isNull();
    var delete =
        cluster.drainRequests().stream().filter(r -> r.getMethod().equals("DELETE")).findFirst();
    assertThat(delete).isPresent();
    assertThat(delete.get().getUtf8Body())
        .contains("\"propagationPolicy\":\"Background\"", "\"preconditions\"");
    await(() -> notFound(ref), "the cancelled attempt is gone");
    backend.cancel(ref);
    backend.cancel(new ExternalRef("k8s-use1", "ty-never-a1", ref.attributes()));
  }

  @Test
  void aJobThatSucceededBeforeTheCancelKeepsItsSuccess() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    operator.succeeded(at);
    backend.cancel(ref);
    assertThat(operator.get(at)).isNotNull();
    assertThat(awaitPhase(ref, BackendPhase.SUCCEEDED).reason())
        .endsWith("successfully completed.");
  }

  @Test
  void aJobThatSucceedsBetweenTheCancelsReadAndItsDeleteKeepsItsSuccess() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    var runningCopy = Serialization.asJson(operator.get(at));
    operator.succeeded(at);
    // The API server as the race leaves it: the cancel reads the job still running, the operator
    // then writes success, so the delete's resourceVersion precondition fails.
    var path = "/apis/kubeflow.org/v1/namespaces/" + at.namespace() + "/pytorchjobs/" + at.name();
    cluster.expect().get().withPath(path).andReturn(200, runningCopy).once();
    cluster
        .expect()
        .delete()
        .withPath(path)
        .andReturn(
            409,
            CrudApiServer.status(
                409,
                "Conflict",
                "Operation cannot be fulfilled on pytorchjobs.kubeflow.org \""
                    + at.name()
                    + "\": the object has been modified"))
        .once();
    backend.cancel(ref);
    assertThat(operator.get(at)).as("the finished job").isNotNull();
    assertThat(awaitPhase(ref, BackendPhase.SUCCEEDED).phase()).isEqualTo(BackendPhase.SUCCEEDED);
  }

  @Test
  void anAttemptIsCancelledFromTheJobAloneWhenItsReferenceWasLost() {
    var job = job(SPEC);
    var at = Attempt.of(submit(job));
    assertThat(operator.get(at)).isNotNull();

    // The gateway was killed before it stored the reference: it has only the attempt.
    backend.cancelAttempt(job);

    assertThat(operator.get(at)).isNull();
    backend.cancelAttempt(job); // nothing there: still fine
  }

  @Test
  void anObjectOfTheAttemptsNameMadeForAnotherJobIsLeftAlone() {
    var job = job(SPEC);
    var at = Attempt.of(submit(job));
    cluster
        .client()
        .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
        .inNamespace(at.namespace())
        .withName(at.name())
        .edit(
            o -> {
              o.getMetadata().getLabels().put(KubeflowJobRenderer.JOB_ID_LABEL, "someone-else");
              return o;
            });

    backend.cancelAttempt(job);

    assertThat(operator.get(at)).isNotNull();
  }

  private boolean notFound(ExternalRef ref) {
    try {
      backend.status(ref);
      return false;
    } catch (BackendException.NotFound e) {
      return true;
    }
  }
}
