package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.aiplatform.v1.CancelCustomJobRequest;
import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.aiplatform.v1.ListCustomJobsRequest;
import io.grpc.Status;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
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

/** The backend's real JobServiceClient, over plaintext gRPC, against {@link FakeJobService}. */
class VertexBackendIT {
  private static final String PARENT = "projects/ml-prod/locations/us-central1";
  private static FakeJobService vertex;
  private static VertexBackend backend;

  @BeforeAll
  static void open() throws Exception {
    vertex = new FakeJobService();
    var config = TestJobs.localConfig(vertex.endpoint(), "");
    var context = new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
    backend = (VertexBackend) new VertexBackendFactory().create(config, context);
  }

  @AfterAll
  static void close() {
    backend.close();
    vertex.close();
  }

  private static BackendJob job(boolean spot) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var placement =
        backend.placements(spec).placements().stream().filter(p -> p.spot() == spot).findFirst();
    return TestJobs.job(spec, placement.get());
  }

  private static CustomJob created(BackendJob job) {
    return vertex.received(CreateCustomJobRequest.class).stream()
        .map(CreateCustomJobRequest::getCustomJob)
        .filter(j -> j.getDisplayName().equals(job.objectName()))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void placementsAnswerFromMemoryAskingVertexNothing() {
    // Configured machine types and the price catalog's shapes: the gateway asks it inline.
    assertThat(backend.placementsFromMemory()).isTrue();
    var before = vertex.received(com.google.protobuf.Message.class).size();
    assertThat(backend.placements(TestJobs.spec(TestJobs.FULL_SPEC)).placements()).isNotEmpty();
    assertThat(vertex.received(com.google.protobuf.Message.class)).hasSize(before);
  }

  @Test
  void submitCreatesOneWorkerPoolPerRoleUnderTheProject() {
    var job = job(true);

    var ref = backend.submit(job);

    var request =
        vertex.received(CreateCustomJobRequest.class).stream()
            .filter(r -> r.getCustomJob().getDisplayName().equals(job.objectName()))
            .findFirst()
            .orElseThrow();
    assertThat(request.getParent()).isEqualTo(PARENT);
    var sent = request.getCustomJob();
    assertThat(sent.getJobSpec().getWorkerPoolSpecsList())
        .extracting(p -> p.getMachineSpec().getMachineType(), p -> p.getReplicaCount())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a2-highgpu-8g", 1L),
            org.assertj.core.groups.Tuple.tuple("a2-highgpu-8g", 2L));
    assertThat(sent.getJobSpec().getScheduling().getStrategy().name()).isEqualTo("SPOT");
    assertThat(sent.getLabelsMap()).containsEntry("trainyard-job-id", job.jobId());
    assertThat(ref.name()).isEqualTo(job.objectName());
    assertThat(ref.attributes().get("resource")).startsWith(PARENT + "/customJobs/");
    assertThat(ref.attributes().get("pools")).isEqualTo("master:1:0,worker:2:0");
  }

  /**
   * Routed with the price book the gateway builds: the Spot VM offer is priced from the GCE spot
   * row times Vertex's on-demand ratio (estimated), is the cheapest, and submits SPOT scheduling.
   */
  @Test
  void aSpotOfferIsPricedFromGceSpotAndSubmitsSpotVms() {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var book =
        new io.trainyard.cost.CatalogPriceBook(
            PriceCatalog.embedded(), new VertexPricingFacts().managedServices(), null);
    var quote =
        new io.trainyard.cost.BackendQuote(
            "vx-test", "vertex", "us-central1", false, null, backend.placements(spec), null);
    var decision =
        new io.trainyard.cost.Router(book, java.math.BigDecimal.ONE)
            .route(spec, java.util.List.of(quote));

    var chosen = decision.offers().get(0);
    assertThat(chosen.spot()).isTrue();
    assertThat(chosen.estimated()).isTrue();
    // 3 × a2-highgpu-8g: GCE spot 11.54364 × Vertex/GCE on-demand 35.26/29.38708 (1.199847)
    assertThat(chosen.hourlyUsd()).isEqualByComparingTo("41.5518");
    assertThat(chosen.notes())
        .anySatisfy(
            n ->
                assertThat(n)
                    .contains("gce spot price of a2-highgpu-8g $11.54364/h")
                    .contains("vertex/gce on-demand ratio 35.26/29.38708"));
    var onDemand = decision.offers().get(1);
    assertThat(onDemand.spot()).isFalse();
    assertThat(onDemand.hourlyUsd()).isEqualByComparingTo("105.78");

    var job = TestJobs.job(spec, chosen.placement());
    backend.submit(job);
    assertThat(created(job).getJobSpec().getScheduling().getStrategy())
        .isEqualTo(com.google.cloud.aiplatform.v1.Scheduling.Strategy.SPOT);
  }

  @Test
  void aSecondSubmitOfTheAttemptAdoptsTheFirstJob() {
    var job = job(false);

    var first = backend.submit(job);
    var second = backend.submit(job);

    assertThat(second).isEqualTo(first);
    assertThat(vertex.jobs())
        .filteredOn(j -> j.getDisplayName().equals(job.objectName()))
        .hasSize(1);
    assertThat(vertex.received(ListCustomJobsRequest.class))
        .anySatisfy(
            r -> assertThat(r.getFilter()).isEqualTo("display_name=\"" + job.objectName() + "\""));
  }

  @Test
  void anAttemptStartedFromAnotherSpecIsRefused() {
    var job = job(false);
    backend.submit(job);
    var changed =
        new BackendJob(
            job.jobId(),
            1,
            job.team(),
            job.owner(),
            job.name(),
            job.spec(),
            "cd".repeat(32),
            job.placement(),
            Map.of());

    assertThatThrownBy(() -> backend.submit(changed))
        .isInstanceOf(io.trainyard.spi.BackendException.Rejected.class)
        .hasMessageContaining("was started from a different spec");
  }

  @Test
  void statusFollowsTheJobAndAFailureKeepsTheError() {
    var ref = backend.submit(job(false));
    var resource = ref.attributes().get("resource");
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    vertex.move(resource, JobState.JOB_STATE_RUNNING, null);
    var running = backend.status(ref);
    vertex.move(resource, JobState.JOB_STATE_FAILED, "The replica workerpool1-0 exited with 1.");
    var failed = backend.status(ref);

    assertThat(running.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(running.startedAt()).isNotNull();
    assertThat(failed.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(failed.reason()).isEqualTo("The replica workerpool1-0 exited with 1.");
    assertThat(failed.endedAt()).isNotNull();
  }

  /**
   * Spot preemption against the fake: a Spot VM job that Vertex fails as UNAVAILABLE ("preempted")
   * is the capacity's failure, mapped onto the job's restart policy — with OnFailure (the default)
   * the attempt is REFUSED with one restart, so the gateway runs it again; with Never it fails and
   * says why. An on-demand job failing the same way is an ordinary failure.
   */
  @Test
  void aSpotPreemptionIsARestartUnderTheJobsRestartPolicy() {
    var restartable = backend.submit(job(true));
    var resource = restartable.attributes().get("resource");
    vertex.move(resource, JobState.JOB_STATE_RUNNING, null);
    vertex.preempt(resource, "The VM of replica workerpool1-0 was preempted.");
    var again = backend.status(restartable);
    assertThat(again.phase()).isEqualTo(BackendPhase.REFUSED);
    assertThat(again.restarts()).isEqualTo(1);
    assertThat(again.reason())
        .isEqualTo(
            "Spot VM preempted (The VM of replica workerpool1-0 was preempted.): counts as a"
                + " restart under the job's restartPolicy, run again");

    var spec = TestJobs.spec(TestJobs.FULL_SPEC + "restartPolicy: Never\n");
    var spot =
        backend.placements(spec).placements().stream().filter(p -> p.spot()).findFirst().get();
    var neverJob = TestJobs.job(spec, spot);
    var never = backend.submit(neverJob);
    var neverResource = never.attributes().get("resource");
    assertThat(created(neverJob).getJobSpec().getScheduling().getRestartJobOnWorkerRestart())
        .isFalse();
    vertex.move(neverResource, JobState.JOB_STATE_RUNNING, null);
    vertex.preempt(neverResource, "The VM of replica workerpool0-0 was preempted.");
    var failed = backend.status(never);
    assertThat(failed.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(failed.reason()).endsWith("restartPolicy Never: not run again");

    var onDemand = backend.submit(job(false));
    vertex.move(onDemand.attributes().get("resource"), JobState.JOB_STATE_RUNNING, null);
    vertex.preempt(onDemand.attributes().get("resource"), "unavailable");
    assertThat(backend.status(onDemand).phase()).isEqualTo(BackendPhase.FAILED);
  }

  @Test
  void aSucceededJobSucceeds() {
    var ref = backend.submit(job(false));
    vertex.move(ref.attributes().get("resource"), JobState.JOB_STATE_RUNNING, null);
    vertex.move(ref.attributes().get("resource"), JobState.JOB_STATE_SUCCEEDED, null);

    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.SUCCEEDED);
  }

  @Test
  void cancelCancelsAndIsIdempotent() {
    var ref = backend.submit(job(false));
    var resource = ref.attributes().get("resource");
    vertex.move(resource, JobState.JOB_STATE_RUNNING, null);

    backend.cancel(ref);
    var cancelling = backend.status(ref);
    vertex.move(resource, JobState.JOB_STATE_CANCELLED, null);

    assertThat(vertex.received(CancelCustomJobRequest.class))
        .anySatisfy(r -> assertThat(r.getName()).isEqualTo(resource));
    assertThat(cancelling.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.STOPPED);
    backend.cancel(ref); // FAILED_PRECONDITION from Vertex: it has ended, which is what we want
    backend.cancel(
        new ExternalRef("vx-test", "ty-x-a1", Map.of("resource", PARENT + "/customJobs/1")));
  }

  @Test
  void aReferenceWithoutItsResourceNameIsFoundByDisplayName() {
    var ref = backend.submit(job(false));

    var bare = new ExternalRef(ref.backendId(), ref.name(), Map.of());

    assertThat(backend.status(bare).phase()).isEqualTo(BackendPhase.ADMITTING);
  }

  @ParameterizedTest(name = "{0} -> {2}")
  @CsvSource({
    "RESOURCE_EXHAUSTED, Quota exceeded for aiplatform.googleapis.com/custom_model_training_nvidia_a100_gpus, CapacityUnavailable",
    "INVALID_ARGUMENT, Machine type a2-highgpu-8g is not supported, Rejected",
    "UNAUTHENTICATED, Request had invalid authentication credentials, Unauthenticated",
    "PERMISSION_DENIED, Permission aiplatform.customJobs.create denied, Unauthenticated",
    "UNAVAILABLE, The service is currently unavailable, Retryable",
    "DEADLINE_EXCEEDED, Deadline exceeded, Retryable",
  })
  void createErrorsAreTranslatedAtTheEdge(Status.Code code, String words, String expected) {
    vertex.failNext("CreateCustomJob", code, words);

    assertThatThrownBy(() -> backend.submit(job(false)))
        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo(expected))
        .hasMessageContaining(code.name())
        .hasMessageContaining(words);
  }

  @Test
  void aJobThatIsGoneIsNotFoundAndAnOutageIsRetryable() {
    var gone = new ExternalRef("vx-test", "ty-x-a1", Map.of("resource", PARENT + "/customJobs/1"));

    assertThatThrownBy(() -> backend.status(gone))
        .isInstanceOf(io.trainyard.spi.BackendException.NotFound.class)
        .hasMessageContaining("not found");
    var ref = backend.submit(job(false));
    vertex.failNext("GetCustomJob", Status.Code.UNAVAILABLE, "connection reset");
    assertThatThrownBy(() -> backend.status(ref))
        .isInstanceOf(io.trainyard.spi.BackendException.Retryable.class)
        .hasMessageContaining("connection reset");
  }

  @Test
  void healthListsOneJobAndTurnsUnhealthyOnRefusedCredentials() {
    assertThat(backend.health().healthy()).isTrue();

    vertex.failNext("ListCustomJobs", Status.Code.UNAUTHENTICATED, "invalid credentials");
    var refused = backend.health();

    assertThat(refused.healthy()).isFalse();
    assertThat(refused.message()).contains("UNAUTHENTICATED").contains("invalid credentials");
    assertThat(vertex.received(ListCustomJobsRequest.class))
        .anySatisfy(r -> assertThat(r.getPageSize()).isEqualTo(1));
  }
}
