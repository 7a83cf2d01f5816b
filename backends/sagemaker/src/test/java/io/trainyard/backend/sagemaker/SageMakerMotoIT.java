package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.testkit.MotoServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.Tag;

/** The backend's real SDK clients against moto's SageMaker and CloudWatch Logs. */
@ExtendWith(MotoServer.class)
class SageMakerMotoIT {
  private static SageMakerConfig config;
  private static SageMakerBackend backend;
  private static SageMakerClient sageMaker;
  private static CloudWatchLogsClient logs;

  @BeforeAll
  static void open() {
    config =
        TestJobs.localConfig(
            MotoServer.endpoint(),
            """
            vpc: {subnets: [subnet-1], securityGroups: [sg-1]}
            networkIsolation: true
            interContainerEncryption: true
            """);
    var context = new BackendContext(PriceCatalog.embedded(), Path.of("target"), Clock.systemUTC());
    backend = (SageMakerBackend) new SageMakerBackendFactory().create(config, context);
    sageMaker = SageMakerBackendFactory.sageMakerClient(config);
    logs = SageMakerBackendFactory.logsClient(config);
  }

  @AfterAll
  static void close() {
    backend.close();
    sageMaker.close();
    logs.close();
  }

  private static BackendJob submittable(String extraSpec) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC + extraSpec);
    var placement =
        backend.placements(spec).placements().stream().filter(p -> !p.spot()).findFirst().get();
    return TestJobs.job(spec, placement);
  }

  @Test
  void submitCreatesTheTrainingJobAsMotoStoresIt() {
    var job = submittable("");

    var ref = backend.submit(job);

    assertThat(ref.backendId()).isEqualTo("sm-test");
    assertThat(ref.name()).isEqualTo(job.objectName());
    assertThat(ref.attributes().get("arn")).endsWith(":training-job/" + job.objectName());
    var stored = sageMaker.describeTrainingJob(r -> r.trainingJobName(job.objectName()));
    assertThat(stored.resourceConfig().instanceTypeAsString()).isEqualTo("ml.g5.xlarge");
    assertThat(stored.resourceConfig().instanceCount()).isEqualTo(3);
    assertThat(stored.algorithmSpecification().trainingImage()).endsWith("/bert:1.4");
    assertThat(stored.roleArn()).isEqualTo(config.roleArn());
    assertThat(stored.outputDataConfig().s3OutputPath()).isEqualTo("s3://ml-out/bert/");
    assertThat(stored.stoppingCondition().maxRuntimeInSeconds()).isEqualTo(6 * 3600);
    assertThat(stored.inputDataConfig())
        .extracting(c -> c.channelName())
        .containsExactly("train", "test");
    assertThat(stored.vpcConfig().subnets()).containsExactly("subnet-1");
    assertThat(stored.enableNetworkIsolation()).isTrue();
    assertThat(stored.enableInterContainerTrafficEncryption()).isTrue();
    assertThat(stored.checkpointConfig().s3Uri()).isEqualTo("s3://ml-ckpt/bert/");
    var tags =
        sageMaker.listTags(r -> r.resourceArn(stored.trainingJobArn())).tags().stream()
            .collect(Collectors.toMap(Tag::key, Tag::value));
    assertThat(tags)
        .containsEntry("trainyard:job-id", job.jobId())
        .containsEntry("trainyard:spec-hash", "hash-1")
        .containsEntry("trainyard:attempt", "1")
        .containsEntry("trainyard:team", "nlp");
  }

  /** moto completes a job the moment it is created. */
  @Test
  void statusReadsTheJobBack() {
    var ref = backend.submit(submittable(""));

    var status = backend.status(ref);

    assertThat(status.phase()).isEqualTo(BackendPhase.SUCCEEDED);
    assertThat(status.startedAt()).isNotNull();
    assertThat(status.endedAt()).isNotNull();
  }

  @Test
  void aJobMotoDoesNotKnowIsNotFound() {
    var ref = new ExternalRef("sm-test", "ty-01hxxxxxxxxxxxxxxxxxxxxxxx-a1", Map.of());

    assertThatThrownBy(() -> backend.status(ref))
        .isInstanceOf(BackendException.NotFound.class)
        .hasMessageContaining("Could not find training job");
    assertThatThrownBy(() -> backend.logs(ref, LogQuery.ALL))
        .isInstanceOf(BackendException.NotFound.class);
  }

  @Test
  void healthListsTrainingJobs() {
    assertThat(backend.health().healthy()).isTrue();
  }

  @Test
  void logsComeFromEachHostsStreamUnderOurReplicaNames() throws Exception {
    var ref = backend.submit(submittable(""));
    var t0 = Instant.now().toEpochMilli() - 10_000;
    TrainingLogs.write(
        logs, ref.name() + "/algo-1-1718000000", t0, "master starts", t0 + 2, "master done");
    TrainingLogs.write(logs, ref.name() + "/algo-2-1718000000", t0 + 1, "worker 0 starts");
    TrainingLogs.write(logs, ref.name() + "/algo-3-1718000000", t0 + 3, "worker 1 starts");

    assertThat(TrainingLogs.read(backend.logs(ref, LogQuery.ALL)))
        .extracting(LogLine::replica, LogLine::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("master-0", "master starts"),
            org.assertj.core.groups.Tuple.tuple("worker-0", "worker 0 starts"),
            org.assertj.core.groups.Tuple.tuple("master-0", "master done"),
            org.assertj.core.groups.Tuple.tuple("worker-1", "worker 1 starts"));
    assertThat(TrainingLogs.read(backend.logs(ref, new LogQuery("worker-1", null, false))))
        .extracting(LogLine::text)
        .containsExactly("worker 1 starts");
    assertThat(
            TrainingLogs.read(
                backend.logs(ref, new LogQuery(null, Instant.ofEpochMilli(t0 + 2), false))))
        .extracting(LogLine::text)
        .containsExactly("master done", "worker 1 starts");
    // The job has ended, so following reads what there is and ends.
    assertThat(TrainingLogs.read(backend.logs(ref, new LogQuery("master-0", null, true))))
        .hasSize(2);
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("worker-7", null, false)))
        .isInstanceOf(BackendException.NotFound.class)
        .hasMessageContaining("[master-0, worker-0, worker-1]");
  }

  @Test
  void aJobWithoutLogsYetHasNoLines() throws Exception {
    var ref = backend.submit(submittable(""));

    assertThat(TrainingLogs.read(backend.logs(ref, LogQuery.ALL))).isEmpty();
  }

  /**
   * SageMaker parses the job's trainyard-metric lines itself: the metric definitions go with
   * CreateTrainingJob (moto replaces them with its own in what it stores, so its recorder shows the
   * request as sent), and a metrics token offered by the gateway is not passed on.
   */
  @Test
  void metricDefinitionsAreSentAndNoTokenIs() throws Exception {
    var job =
        submittable("")
            .withGatewaySecretEnv(
                Map.of(
                    "TRAINYARD_METRICS_URL",
                    "http://127.0.0.1:8080/v1/jobs/x/metrics",
                    "TRAINYARD_METRICS_TOKEN",
                    "tym_not-for-sagemaker"));
    var create = recordedCreate(job);
    assertThat(create).as("CreateTrainingJob of %s recorded", job.objectName()).isNotNull();
    var definitions = create.path("AlgorithmSpecification").path("MetricDefinitions");
    assertThat(definitions).hasSize(SageMakerConfig.DEFAULT_METRIC_NAMES.size());
    var loss = definitions.get(0);
    assertThat(loss.path("Name").asText()).isEqualTo("loss");
    var regex = java.util.regex.Pattern.compile(loss.path("Regex").asText());
    var matcher = regex.matcher("[master-0] trainyard-metric name=loss value=0.42 step=3 epoch=1");
    assertThat(matcher.find()).isTrue();
    assertThat(matcher.group(1)).isEqualTo("0.42");
    assertThat(regex.matcher("trainyard-metric name=val_loss value=0.5").find()).isFalse();
    assertThat(create.toString()).doesNotContain("tym_not-for-sagemaker");
    assertThat(create.path("Environment").has("TRAINYARD_METRICS_TOKEN")).isFalse();
    assertThat(backend.deliversGatewaySecrets()).isFalse();
  }

  /** Submits the job while moto's recorder runs; the CreateTrainingJob body as sent. */
  private static com.fasterxml.jackson.databind.JsonNode recordedCreate(BackendJob job)
      throws Exception {
    var http = java.net.http.HttpClient.newHttpClient();
    var api = MotoServer.endpoint() + "/moto-api/recorder/";
    post(http, api + "reset-recording");
    post(http, api + "start-recording");
    String recording;
    try {
      backend.submit(job);
      recording =
          http.send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(api + "download-recording"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString())
              .body();
    } finally {
      post(http, api + "stop-recording");
    }
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.JsonNode create = null;
    for (var line : recording.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      var entry = mapper.readTree(line);
      var target = entry.path("headers").path("X-Amz-Target").asText();
      if (target.endsWith("CreateTrainingJob")) {
        var body = entry.path("body").asText();
        if (entry.path("body_encoded").asBoolean()) {
          body =
              new String(
                  java.util.Base64.getDecoder().decode(body),
                  java.nio.charset.StandardCharsets.UTF_8);
        }
        var request = mapper.readTree(body);
        if (request.path("TrainingJobName").asText().equals(job.objectName())) {
          create = request;
        }
      }
    }
    assertThat(create).as("CreateTrainingJob of %s recorded", job.objectName()).isNotNull();
    return create;
  }

  /**
   * Managed spot as sent: EnableManagedSpotTraining, MaxWaitTimeInSeconds = maxRuntime (6h) +
   * maxWaitForSpot (default 1h), and the checkpoint from spec.checkpoint.
   */
  /**
   * The ML storage volume in the whole-job total: a CPU job on ml.m5.2xlarge (EBS only) quoted for
   * 73 h gets 50 GB per instance × 2 instances × 73 h ÷ 730 × $0.154/GB-month = $1.54 (Ireland's
   * rate, marked estimated for us-east-1), and the job moto stores asks for that volume. A GPU job
   * on ml.g5 (NVMe) gets none.
   */
  @Test
  void theStorageVolumeIsInTheTotalAndIsWhatTheJobAsksFor() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            image: 123456789012.dkr.ecr.us-east-1.amazonaws.com/bert:1.4
            command: [python, train.py]
            resources: {cpus: 4, memory: 16Gi}
            replicas: {master: 1, worker: 1}
            estimatedHours: 73
            output: {uri: s3://ml-out/bert/}
            placement: {spot: never}
            """);
    var router =
        new io.trainyard.cost.Router(
            new io.trainyard.cost.CatalogPriceBook(PriceCatalog.embedded()),
            java.math.BigDecimal.ONE);
    var decision =
        router.route(
            spec,
            java.util.List.of(
                new io.trainyard.cost.BackendQuote(
                    "sm-test",
                    "sagemaker",
                    "us-east-1",
                    true,
                    null,
                    backend.placements(spec),
                    null)));
    var offer = decision.offers().get(0);
    assertThat(offer.placement().lines().get(0).instanceType()).isEqualTo("ml.m5.2xlarge");
    assertThat(offer.placement().storageGbPerInstance()).isEqualTo(config.volumeSizeGb());
    // 2 × $0.461 × 73 h + 50 × 2 × 73 / 730 × 0.154
    assertThat(offer.estimatedTotalUsd()).isEqualByComparingTo("68.846");
    assertThat(offer.estimatedUsd()).isEqualByComparingTo(offer.estimatedTotalUsd());
    assertThat(offer.notes())
        .anySatisfy(
            n ->
                assertThat(n)
                    .startsWith("storage: 50 GB × 2 instance(s) × 73 h ÷ 730 h × $0.154/GB-month")
                    .contains("estimated: no rate for us-east-1"));

    var job = TestJobs.job(spec, offer.placement());
    backend.submit(job);
    var stored = sageMaker.describeTrainingJob(r -> r.trainingJobName(job.objectName()));
    assertThat(stored.resourceConfig().volumeSizeInGB())
        .isEqualTo(offer.placement().storageGbPerInstance());

    var gpu = TestJobs.spec(TestJobs.FULL_SPEC);
    assertThat(backend.placements(gpu).placements())
        .allSatisfy(p -> assertThat(p.storageGbPerInstance()).isNull());
  }

  @Test
  void aSpotPlacementSubmitsManagedSpotTraining() throws Exception {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var spot =
        backend.placements(spec).placements().stream().filter(p -> p.spot()).findFirst().get();
    var job = TestJobs.job(spec, spot);

    var create = recordedCreate(job);

    assertThat(create.path("EnableManagedSpotTraining").asBoolean()).isTrue();
    assertThat(create.path("StoppingCondition").path("MaxRuntimeInSeconds").asInt())
        .isEqualTo(6 * 3600);
    assertThat(create.path("StoppingCondition").path("MaxWaitTimeInSeconds").asInt())
        .isEqualTo(7 * 3600);
    assertThat(create.path("CheckpointConfig").path("S3Uri").asText())
        .isEqualTo("s3://ml-ckpt/bert/");
    assertThat(create.path("CheckpointConfig").path("LocalPath").asText())
        .isEqualTo("/opt/ml/checkpoints");

    var onDemand = recordedCreate(submittable(""));
    assertThat(onDemand.path("EnableManagedSpotTraining").asBoolean()).isFalse();
    assertThat(onDemand.path("StoppingCondition").has("MaxWaitTimeInSeconds")).isFalse();
  }

  private static void post(java.net.http.HttpClient http, String url) throws Exception {
    var answer =
        http.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(url).isEqualTo(200);
  }
}
