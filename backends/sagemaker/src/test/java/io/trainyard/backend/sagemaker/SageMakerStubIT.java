package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The backend's real SageMaker client against {@link SageMakerStub}, for what moto cannot do: jobs
 * that run, fail and stop; StopTrainingJob; name clashes; and the errors SageMaker answers with.
 */
class SageMakerStubIT {
  private static SageMakerStub stub;
  private static SageMakerBackend backend;

  @BeforeAll
  static void open() throws Exception {
    stub = new SageMakerStub();
    var config = TestJobs.localConfig(stub.endpoint(), "");
    var context = new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
    backend = (SageMakerBackend) new SageMakerBackendFactory().create(config, context);
  }

  @AfterAll
  static void close() {
    backend.close();
    stub.close();
  }

  private static BackendJob job(boolean spot) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var placement =
        backend.placements(spec).placements().stream().filter(p -> p.spot() == spot).findFirst();
    return TestJobs.job(spec, placement.get());
  }

  @Test
  void placementsAnswerFromMemoryAskingSageMakerNothing() {
    // Configured instance types and the price catalog's shapes: the gateway asks it inline.
    assertThat(backend.placementsFromMemory()).isTrue();
    var before = stub.calls().size();
    assertThat(backend.placements(TestJobs.spec(TestJobs.FULL_SPEC)).placements()).isNotEmpty();
    assertThat(stub.calls()).hasSize(before);
  }

  @Test
  void theRequestOnTheWireIsWhatTheSpecAsked() {
    var job = job(true);

    backend.submit(job);

    var sent =
        stub.calls("CreateTrainingJob").stream()
            .filter(c -> c.body().path("TrainingJobName").asText().equals(job.objectName()))
            .findFirst()
            .orElseThrow()
            .body();
    assertThat(sent.at("/ResourceConfig/InstanceType").asText()).isEqualTo("ml.g5.xlarge");
    assertThat(sent.at("/ResourceConfig/InstanceCount").asInt()).isEqualTo(3);
    assertThat(sent.at("/EnableManagedSpotTraining").asBoolean()).isTrue();
    assertThat(sent.at("/StoppingCondition/MaxRuntimeInSeconds").asInt()).isEqualTo(6 * 3600);
    assertThat(sent.at("/StoppingCondition/MaxWaitTimeInSeconds").asInt()).isEqualTo(7 * 3600);
    assertThat(sent.at("/AlgorithmSpecification/ContainerEntrypoint/0").asText())
        .isEqualTo("python");
    assertThat(sent.at("/Environment/TRAINYARD_REPLICAS").asText())
        .isEqualTo("master-0,worker-0,worker-1");
    assertThat(sent.at("/Tags").findValuesAsText("Value")).contains(job.jobId(), "hash-1");
  }

  @Test
  void aRunningJobThatFailsCarriesSageMakersReason() {
    var ref = backend.submit(job(false));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    stub.move(ref.name(), "InProgress", "Training", null);
    var running = backend.status(ref);
    stub.move(ref.name(), "Failed", "Failed", "AlgorithmError: exit code 1");
    var failed = backend.status(ref);

    assertThat(running.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(running.startedAt()).isNotNull();
    assertThat(failed.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(failed.reason()).isEqualTo("AlgorithmError: exit code 1");
    assertThat(failed.endedAt()).isNotNull();
  }

  @Test
  void cancelStopsTheJobAndIsIdempotent() {
    var ref = backend.submit(job(false));
    stub.move(ref.name(), "InProgress", "Training", null);

    backend.cancel(ref);
    var stopping = backend.status(ref);
    stub.move(ref.name(), "Stopped", "Stopped", null);

    assertThat(stub.calls("StopTrainingJob"))
        .anySatisfy(
            c -> assertThat(c.body().path("TrainingJobName").asText()).isEqualTo(ref.name()));
    assertThat(stopping.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.STOPPED);
    backend.cancel(ref); // SageMaker refuses to stop a stopped job; for us that is done
    backend.cancel(new ExternalRef("sm-test", "ty-01hmissingmissingmissingmi-a1", Map.of()));
  }

  @Test
  void anExistingJobWithOurTagsIsAdoptedNotCreatedAgain() {
    var job = job(false);
    stub.putJob(
        job.objectName(),
        Map.of("trainyard:job-id", job.jobId(), "trainyard:spec-hash", job.specHash()));

    var ref = backend.submit(job);

    assertThat(ref.name()).isEqualTo(job.objectName());
    assertThat(ref.attributes().get("arn")).endsWith(job.objectName());
    assertThat(ref.attributes().get("replicas")).isEqualTo("master:1,worker:2");
  }

  @Test
  void anExistingJobOfAnotherJobOrSpecIsRefused() {
    var job = job(false);
    stub.putJob(
        job.objectName(), Map.of("trainyard:job-id", job.jobId(), "trainyard:spec-hash", "other"));
    var stranger = job(false);
    stub.putJob(stranger.objectName(), Map.of("trainyard:job-id", "01hsomeoneelse"));

    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("different spec (hash other)");
    assertThatThrownBy(() -> backend.submit(stranger))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("is not job " + stranger.jobId());
  }

  @ParameterizedTest(name = "{1} -> {3}")
  @CsvSource({
    "400, ThrottlingException, Rate exceeded, Retryable",
    "400, ResourceLimitExceeded, The account-level service limit 'ml.p4d.24xlarge for training"
        + " job usage' is 0 Instances, CapacityUnavailable",
    "400, ValidationException, 1 validation error detected: Value 'ml.x' at"
        + " 'resourceConfig.instanceType' failed to satisfy constraint, Rejected",
    "400, ExpiredTokenException, The security token included in the request is expired,"
        + " Unauthenticated",
    "400, UnrecognizedClientException, The security token included in the request is invalid,"
        + " Unauthenticated",
    "403, AccessDeniedException, User is not authorized to perform sagemaker:CreateTrainingJob,"
        + " Unauthenticated",
    "500, InternalFailure, We encountered an internal error, Retryable",
    "503, ServiceUnavailable, Service is unavailable, Retryable",
  })
  void submitErrorsAreTranslatedAtTheEdge(int status, String type, String words, String expected) {
    stub.failNext("CreateTrainingJob", status, type, words);

    assertThatThrownBy(() -> backend.submit(job(false)))
        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo(expected))
        .hasMessageContaining(type)
        .hasMessageContaining(words);
  }

  @Test
  void healthTurnsUnhealthyWhenCredentialsAreRefused() {
    stub.failNext("ListTrainingJobs", 400, "ExpiredTokenException", "The security token expired");

    var health = backend.health();

    assertThat(health.healthy()).isFalse();
    assertThat(health.message()).contains("ExpiredTokenException");
    assertThat(backend.health().healthy()).isTrue();
  }

  @Test
  void aJobThatIsGoneIsNotFound() {
    var ref = new ExternalRef("sm-test", "ty-01hgonegonegonegonegonegon-a1", Map.of());

    assertThatThrownBy(() -> backend.status(ref)).isInstanceOf(BackendException.NotFound.class);
  }

  @Test
  void aSpecSageMakerCannotRunIsRejectedAtSubmitToo() {
    var spec =
        TestJobs.spec(
            TestJobs.FULL_SPEC + "kubernetes: {podTemplate: {tolerations: [{key: gpu}]}}\n");
    var job = TestJobs.job(spec, null);

    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("podTemplate sets tolerations");
  }
}
