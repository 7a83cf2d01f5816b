package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The backend's real azure-core pipelines and azure-identity's {@code ClientSecretCredential} (MSAL
 * underneath) against {@link AzureMlFake}: tokens from its token endpoint, the bearer checked on
 * every ARM and Blob call, and the bodies the client sent checked field by field.
 */
class AzureMlFakeIT {
  private static AzureMlFake fake;
  private static AzureMlBackend backend;

  @BeforeAll
  static void open() throws Exception {
    fake = new AzureMlFake();
    backend = TestJobs.backend(fake, "");
  }

  @AfterAll
  static void close() {
    backend.close();
    fake.close();
  }

  private static BackendJob job(boolean spot) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var placement =
        backend.placements(spec).placements().stream().filter(p -> p.spot() == spot).findFirst();
    return TestJobs.job(spec, placement.orElseThrow());
  }

  @Test
  void placementsAnswerFromMemoryAskingArmNothing() {
    // Configured VM sizes, this module's size table and the catalog: the gateway asks it inline.
    assertThat(backend.placementsFromMemory()).isTrue();
    var before = fake.calls().size();
    assertThat(backend.placements(TestJobs.spec(TestJobs.FULL_SPEC)).placements()).isNotEmpty();
    assertThat(fake.calls()).hasSize(before);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theJobOnTheWireIsWhatTheSpecAsked() {
    var job = job(true);

    var ref = backend.submit(job);

    var sent = fake.jobBody(job.objectName());
    assertThat(sent.get("jobType")).isEqualTo("Command");
    assertThat((String) sent.get("command"))
        .isEqualTo(
            "TRAINYARD_INPUT_TRAIN=${{inputs.train}} TRAINYARD_INPUT_VOCAB=${{inputs.vocab}}"
                + " TRAINYARD_OUTPUT_DIR=${{outputs.output}}"
                + " TRAINYARD_CHECKPOINT_DIR=${{outputs.checkpoint}}"
                + " python train.py --epochs 1 --note 'it'\"'\"'s fine'");
    assertThat((String) sent.get("environmentId"))
        .startsWith(
            "/subscriptions/"
                + AzureMlFake.SUBSCRIPTION
                + "/resourceGroups/"
                + AzureMlFake.RESOURCE_GROUP
                + "/providers/Microsoft.MachineLearningServices/workspaces/"
                + AzureMlFake.WORKSPACE
                + "/environments/trainyard-")
        .endsWith("/versions/1");
    assertThat(sent).doesNotContainKey("computeId");
    var resources = (Map<String, Object>) sent.get("resources");
    assertThat(resources.get("instanceType")).isEqualTo("Standard_NC24ads_A100_v4");
    assertThat(((Number) resources.get("instanceCount")).intValue()).isEqualTo(3);
    assertThat((Map<String, Object>) sent.get("queueSettings")).containsEntry("jobTier", "Spot");
    var distribution = (Map<String, Object>) sent.get("distribution");
    assertThat(distribution.get("distributionType")).isEqualTo("PyTorch");
    assertThat(((Number) distribution.get("processCountPerInstance")).intValue()).isEqualTo(1);
    assertThat((Map<String, Object>) sent.get("limits"))
        .containsEntry("jobLimitsType", "Command")
        .containsEntry("timeout", "PT6H");
    var inputs = (Map<String, Map<String, Object>>) sent.get("inputs");
    assertThat(inputs.get("train"))
        .containsEntry("jobInputType", "uri_folder")
        .containsEntry("uri", "https://mldata.blob.core.windows.net/imdb/train/")
        .containsEntry("mode", "ReadOnlyMount");
    assertThat(inputs.get("vocab")).containsEntry("jobInputType", "uri_file");
    var outputs = (Map<String, Map<String, Object>>) sent.get("outputs");
    assertThat(outputs.get("output"))
        .containsEntry("jobOutputType", "uri_folder")
        .containsEntry("mode", "ReadWriteMount");
    assertThat(outputs.get("checkpoint"))
        .containsEntry("uri", "azureml://datastores/ckpt/paths/bert/");
    var env = (Map<String, Object>) sent.get("environmentVariables");
    assertThat(env)
        .containsEntry("HF_DATASETS_OFFLINE", "1")
        .containsEntry("TRAINYARD_REPLICAS", "master-0,worker-0,worker-1");
    assertThat((Map<String, Object>) sent.get("tags"))
        .containsEntry("trainyard:job-id", job.jobId())
        .containsEntry("trainyard:spec-hash", "hash-1");
    assertThat(ref.name()).isEqualTo(job.objectName());
    assertThat(ref.attributes()).containsEntry("nodes", "master-0,worker-0,worker-1");
  }

  @Test
  void theEnvironmentVersionIsCreatedFromTheImageOnceAndBeforeTheJob() {
    backend.submit(job(false));
    backend.submit(job(false));

    var envPuts = fake.calls("PUT", "/environments/");
    assertThat(envPuts).isNotEmpty();
    var first = envPuts.get(0);
    assertThat(AzureJson.object(first.body(), "properties"))
        .containsEntry("image", "myregistry.azurecr.io/bert:1.4")
        .containsEntry("osType", "Linux");
    // Same image, same environment: the second job finds it and does not PUT it again.
    assertThat(envPuts.stream().map(AzureMlFake.Call::path).distinct()).hasSize(1);
    assertThat(envPuts).hasSize(1);
    var order = fake.calls().stream().map(c -> c.method() + " " + c.path()).toList();
    var firstEnvPut = order.indexOf("PUT " + first.path());
    var firstJobPut =
        order.stream().filter(c -> c.startsWith("PUT ") && c.contains("/jobs/")).findFirst();
    assertThat(firstJobPut).isPresent();
    assertThat(firstEnvPut).isLessThan(order.indexOf(firstJobPut.get()));
  }

  @Test
  void everyCallCarriesABearerTokenFromTheTokenEndpoint() {
    backend.submit(job(false));

    var tokenCalls = fake.calls("POST", "/oauth2/v2.0/token");
    assertThat(tokenCalls)
        .allSatisfy(
            c -> {
              assertThat(c.path()).startsWith("/" + AzureMlFake.TENANT + "/");
              assertThat(c.form()).containsEntry("client_id", AzureMlFake.CLIENT_ID);
              assertThat(c.form()).containsEntry("grant_type", "client_credentials");
            })
        .anySatisfy(c -> assertThat(c.form().get("scope")).contains(AzureMlFake.ARM_SCOPE));
    // The fake answers 401 to any ARM call without a token it issued for ARM: none was refused.
    assertThat(fake.calls("PUT", "/jobs/")).isNotEmpty();
  }

  @Test
  void aCredentialTheTokenEndpointRefusesIsUnauthenticated() {
    var config =
        TestJobs.fakeConfig(fake, "").toString(); // the secret never shows in the config's text
    assertThat(config).doesNotContain(AzureMlFake.CLIENT_SECRET);
    var yaml = fake.configYaml().replace(AzureMlFake.CLIENT_SECRET, "wrong-secret-value");
    var wrong =
        AzureMlBackendFactory.create(
            TestJobs.config("type: azureml\nid: aml-wrong\nregion: eastus\n" + yaml),
            new io.trainyard.spi.BackendContext(
                io.trainyard.spi.InstanceShapes.NONE,
                java.nio.file.Path.of("target"),
                java.time.Clock.systemUTC()),
            AzureMlFake.httpClient());

    assertThatThrownBy(() -> wrong.submit(job(false)))
        .isInstanceOf(BackendException.Unauthenticated.class)
        .hasMessageNotContaining("wrong-secret-value");
    assertThat(wrong.health().healthy()).isFalse();
    assertThat(backend.health().healthy()).isTrue();
  }

  @Test
  void aJobMovesThroughItsStatesAndEnds() {
    var ref = backend.submit(job(false));
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    fake.move(ref.name(), "Running");
    var running = backend.status(ref);
    fake.move(ref.name(), "Failed");
    var failed = backend.status(ref);

    assertThat(running.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(failed.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(failed.reason()).contains("Failed");
    assertThat(failed.endedAt()).isNotNull();
  }

  @Test
  void aFailedJobsReasonEndsWithTheLastLineItPrinted() {
    var ref = backend.submit(job(false));
    fake.appendLog(
        ref.name(),
        "std_log_process_0.txt",
        "Traceback (most recent call last):\n  File \"train.py\"\nValueError: bad label 7\n\n");
    fake.move(ref.name(), "Failed");

    assertThat(backend.status(ref).reason())
        .startsWith("Azure ML job Failed")
        .endsWith("; last line: ValueError: bad label 7");
  }

  @Test
  void cancelPostsCancelAndIsIdempotent() {
    var ref = backend.submit(job(false));
    fake.move(ref.name(), "Running");

    backend.cancel(ref);
    var cancelling = backend.status(ref);
    fake.move(ref.name(), "Canceled");

    assertThat(fake.calls("POST", "/jobs/" + ref.name() + "/cancel")).hasSize(1);
    assertThat(cancelling.phase()).isEqualTo(BackendPhase.RUNNING);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.STOPPED);
    backend.cancel(ref); // Azure ML refuses to cancel a canceled job; for us that is done
    fake.deleteJob(ref.name());
    backend.cancel(ref); // and a job that is gone is cancelled too
  }

  @Test
  void anExistingJobWithOurTagsIsAdoptedNotCreatedAgain() {
    var job = job(false);
    fake.putJob(
        job.objectName(),
        Map.of("trainyard:job-id", job.jobId(), "trainyard:spec-hash", job.specHash()));

    var ref = backend.submit(job);

    assertThat(ref.name()).isEqualTo(job.objectName());
    assertThat(fake.calls("PUT", "/jobs/" + job.objectName())).isEmpty();
    assertThat(fake.status(job.objectName())).isEqualTo("Running");
  }

  @Test
  void anExistingJobOfAnotherJobOrSpecIsRefused() {
    var job = job(false);
    fake.putJob(
        job.objectName(), Map.of("trainyard:job-id", job.jobId(), "trainyard:spec-hash", "other"));
    var stranger = job(false);
    fake.putJob(stranger.objectName(), Map.of("trainyard:job-id", "01hsomeoneelse"));

    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("different spec (hash other)");
    assertThatThrownBy(() -> backend.submit(stranger))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("is not job " + stranger.jobId());
    assertThat(fake.calls("PUT", "/jobs/" + job.objectName())).isEmpty();
  }

  @Test
  void aJobThatIsGoneIsNotFound() {
    var ref = backend.submit(job(false));
    fake.deleteJob(ref.name());

    assertThatThrownBy(() -> backend.status(ref)).isInstanceOf(BackendException.NotFound.class);
    assertThatThrownBy(() -> backend.logs(ref, LogQuery.ALL))
        .isInstanceOf(BackendException.NotFound.class);
  }

  @ParameterizedTest(name = "{1} -> {3}")
  @CsvSource({
    "400, QuotaExceeded, Not enough quota available for Standard_NC24ads_A100_v4, CapacityUnavailable",
    "409, SkuNotAvailable, The requested VM size is not available in eastus, CapacityUnavailable",
    "429, TooManyRequests, Rate limit exceeded, Retryable",
    "400, UserError, The command is empty, Rejected",
    "403, AuthorizationFailed, The client does not have authorization to perform action, Unauthenticated",
    "500, InternalServerError, Something went wrong, Retryable",
    "503, ServiceUnavailable, Service is unavailable, Retryable",
  })
  void submitErrorsAreTranslatedAtTheEdge(int status, String code, String words, String expected) {
    var job = job(false);
    fake.failNext("PUT", "/jobs/" + job.objectName(), status, code, words);

    assertThatThrownBy(() -> backend.submit(job))
        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo(expected))
        .hasMessageContaining(code)
        .hasMessageContaining(words);
  }

  @Test
  void logsAreReadFromBlobStorageAndLabelledWithReplicas() throws Exception {
    var ref = backend.submit(job(false));
    fake.move(ref.name(), "Completed");
    fake.appendLog(ref.name(), "std_log_process_0.txt", "master says hi\nepoch 1\n");
    fake.appendLog(ref.name(), "std_log_process_2.txt", "worker-1 here\n");
    fake.appendLog(ref.name(), "system_log.txt", "not a user log\n");

    var all = read(backend.logs(ref, LogQuery.ALL));
    var one = read(backend.logs(ref, new LogQuery("worker-1", null, false)));

    assertThat(all)
        .extracting(LogLine::replica, LogLine::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("master-0", "master says hi"),
            org.assertj.core.groups.Tuple.tuple("master-0", "epoch 1"),
            org.assertj.core.groups.Tuple.tuple("worker-1", "worker-1 here"));
    assertThat(one).extracting(LogLine::text).containsExactly("worker-1 here");
    assertThat(fake.calls("GET", "/blob/azureml"))
        .allSatisfy(c -> assertThat(c.path()).doesNotContain("system_log"));
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("worker-7", null, false)))
        .isInstanceOf(BackendException.NotFound.class);
  }

  @Test
  void aFollowedStreamShowsLinesAsTheyComeAndEndsWithTheJob() throws Exception {
    var ref = backend.submit(job(false));
    fake.move(ref.name(), "Running");
    fake.appendLog(ref.name(), "std_log_process_0.txt", "epoch 1\nepoch 2 sta");

    var stream = backend.logs(ref, new LogQuery("master-0", null, true));
    var lines =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return read(stream);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    var reads = fake.calls("GET", "/blob/azureml").size();
    while (fake.calls("GET", "/blob/azureml").size() < reads + 4) {
      Thread.sleep(20); // the stream has polled the storage twice more
    }
    assertThat(lines).isNotDone();
    fake.appendLog(ref.name(), "std_log_process_0.txt", "rted\nlast line without newline");
    fake.move(ref.name(), "Completed");

    assertThat(lines.get(20, TimeUnit.SECONDS))
        .extracting(LogLine::text)
        .containsExactly("epoch 1", "epoch 2 started", "last line without newline");
  }

  @Test
  void healthProbesTheWorkspacesJobsAndSaysWhyNot() {
    fake.failNext("GET", "/jobs/trainyard-health-probe", 403, "AuthorizationFailed", "no");
    var elsewhere =
        TestJobs.backend(fake, "workspace: other-ws\n"); // a later key replaces the fake's

    var refused = backend.health();
    var missingWorkspace = elsewhere.health();

    assertThat(refused.healthy()).isFalse();
    assertThat(refused.message()).contains("AuthorizationFailed");
    assertThat(missingWorkspace.healthy()).isFalse();
    assertThat(missingWorkspace.message()).contains("ResourceNotFound");
    assertThat(backend.health().healthy()).isTrue();
  }

  @Test
  void aSpecAzureMlCannotRunIsRejectedAtSubmitToo() {
    var spec =
        TestJobs.spec(
            TestJobs.FULL_SPEC + "kubernetes: {podTemplate: {tolerations: [{key: gpu}]}}\n");

    assertThatThrownBy(() -> backend.submit(TestJobs.job(spec, null)))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("podTemplate sets tolerations");
  }

  @Test
  void aClusterBlockSendsComputeIdAndTheLowPriorityClusterForSpot() {
    var cluster =
        TestJobs.backend(
            fake,
            "compute: gpu-a100\nlowPriorityCompute: gpu-a100-lp\n"
                + "vmSizes: [Standard_NC24ads_A100_v4]\n");
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var spot =
        cluster.placements(spec).placements().stream().filter(p -> p.spot()).findFirst().get();
    var dedicated =
        cluster.placements(spec).placements().stream().filter(p -> !p.spot()).findFirst().get();
    var spotJob = TestJobs.job(spec, spot);
    var dedicatedJob = TestJobs.job(spec, dedicated);

    cluster.submit(spotJob);
    cluster.submit(dedicatedJob);

    assertThat((String) fake.jobBody(spotJob.objectName()).get("computeId"))
        .endsWith("/workspaces/" + AzureMlFake.WORKSPACE + "/computes/gpu-a100-lp");
    assertThat((String) fake.jobBody(dedicatedJob.objectName()).get("computeId"))
        .endsWith("/computes/gpu-a100");
    assertThat(fake.jobBody(spotJob.objectName())).doesNotContainKey("queueSettings");
  }

  @Test
  void aSpotPlacementABlockCanNoLongerHonourRunsOnTheDedicatedCluster() {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var spotFromBefore =
        backend.placements(spec).placements().stream().filter(p -> p.spot()).findFirst().get();
    var cluster =
        TestJobs.backend(fake, "compute: gpu-a100\nvmSizes: [Standard_NC24ads_A100_v4]\n");
    var job = TestJobs.job(spec, spotFromBefore);

    cluster.submit(job);

    assertThat((String) fake.jobBody(job.objectName()).get("computeId"))
        .endsWith("/computes/gpu-a100");
  }

  static List<LogLine> read(io.trainyard.spi.LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    return lines;
  }
}
