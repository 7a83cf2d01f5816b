package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendPhase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two signals that make the gateway fail a job over: a refusal for quota at submit, and an
 * attempt not admitted within the admission timeout (here 2m, on the test's clock).
 */
class KubernetesFailoverIT extends CrudServerTest {
  private static final String JOBS = "/apis/kubeflow.org/v1/namespaces/nlp-jobs/pytorchjobs";

  @Test
  void aQuotaRefusalAtSubmitIsCapacityUnavailableInTheServersWords() {
    var job = job(SPEC);
    var words =
        "pytorchjobs.kubeflow.org \""
            + job.objectName()
            + "\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=3,"
            + " used: requests.nvidia.com/gpu=6, limited: requests.nvidia.com/gpu=8";
    cluster
        .expect()
        .post()
        .withPath(JOBS)
        .andReturn(403, CrudApiServer.status(403, "Forbidden", words))
        .once();
    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.CapacityUnavailable.class)
        .hasMessageContaining("exceeded quota: gpu-quota");
    // Nothing was created; once the quota frees, the same attempt goes through.
    assertThat(backend.submit(job).name()).isEqualTo(job.objectName());
  }

  @Test
  void anAdmissionWebhooksDenialIsRejectedAndOurOwnForbiddenIsUnauthenticated() {
    var job = job(SPEC);
    cluster
        .expect()
        .post()
        .withPath(JOBS)
        .andReturn(
            400,
            CrudApiServer.status(
                400,
                "BadRequest",
                "admission webhook \"validate.kubeflow.org\" denied the request: replica"
                    + " Worker has no container named pytorch"))
        .once();
    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("denied the request");
    cluster
        .expect()
        .post()
        .withPath(JOBS)
        .andReturn(
            403,
            CrudApiServer.status(
                403,
                "Forbidden",
                "pytorchjobs.kubeflow.org is forbidden: User \"system:serviceaccount:trainyard:gw\""
                    + " cannot create resource \"pytorchjobs\" in API group \"kubeflow.org\""
                    + " in the namespace \"nlp-jobs\""))
        .once();
    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Unauthenticated.class);
  }

  @Test
  void anAttemptHeldByKueuePastTheTimeoutIsDeletedAndRefusedAlsoAfterARestart() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    operator.suspended(at);
    awaitPhase(ref, BackendPhase.SUSPENDED);
    clock.advance(Duration.ofMinutes(1));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.SUSPENDED);

    clock.advance(Duration.ofMinutes(2));
    var refused = backend.status(ref);
    assertThat(refused.phase()).isEqualTo(BackendPhase.REFUSED);
    assertThat(refused.reason())
        .isEqualTo("not admitted within 2m: PyTorchJob " + at.name() + " is suspended.");
    assertThat(operator.get(at)).as("the attempt's object").isNull();
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.REFUSED);
    // A gateway that died before recording the failover asks a new backend instance.
    var restarted = newBackend();
    assertThat(restarted.status(ref).reason()).isEqualTo(refused.reason());
  }

  @Test
  void anAttemptWhosePodsStayPendingIsRefusedCountedFromItsCreation() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    awaitStatus(ref, s -> s.reason() != null, "the operator's Created condition is seen");
    clock.advance(Duration.ofMinutes(2).plusSeconds(5));
    var refused = backend.status(ref);
    assertThat(refused.phase()).isEqualTo(BackendPhase.REFUSED);
    assertThat(refused.reason())
        .isEqualTo("not admitted within 2m: PyTorchJob " + at.name() + " is created.");
  }

  @Test
  void aJobPreemptedAfterRunningGetsAFullTimeoutFromItsSuspension() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.created(at);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    clock.advance(Duration.ofHours(1));
    operator.suspended(at);
    awaitPhase(ref, BackendPhase.SUSPENDED);
    clock.advance(Duration.ofMinutes(1));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.SUSPENDED);
    clock.advance(Duration.ofMinutes(2));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.REFUSED);
  }

  @Test
  void aRunningJobIsNeverRefused() {
    var ref = submit(job(SPEC));
    var at = Attempt.of(ref);
    operator.running(at, Map.of("Master", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    clock.advance(Duration.ofHours(5));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.RUNNING);
  }
}
