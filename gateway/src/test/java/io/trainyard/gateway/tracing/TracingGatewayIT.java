package io.trainyard.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.vertex.FakeJobService;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.OtlpReceiver;
import io.trainyard.gateway.testing.OtlpReceiver.ReceivedSpan;
import io.trainyard.testkit.MotoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A submission is one trace, exported by the gateway's real OTLP/HTTP exporter to a receiver in the
 * test: the server span (continuing the caller's {@code traceparent}) → validate, route (a quote
 * per backend), persist → the reconciler's step → backend submit → the backend's own client spans,
 * on the fabric8 API server (kubernetes), moto (SageMaker, AWS SDK) and the in-process Vertex
 * JobService (gRPC); the request id on every span.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class TracingGatewayIT {
  private static final Duration WITHIN = Duration.ofSeconds(60);
  private static final String COLLECTOR_KEY = "collector-key-not-for-logs";
  private static final Path DIR = GatewayClient.tempDir("trainyard-tracing");
  private static final OtlpReceiver RECEIVER = new OtlpReceiver();
  private static final CrudApiServer CLUSTER = new CrudApiServer();
  private static final MotoServer.Running MOTO = startMoto();
  private static final FakeJobService VERTEX = startVertex();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  private static GatewayClient client;
  private static String token;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    token =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("mia", Set.of("ml"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    RECEIVER.close();
    CLUSTER.close();
    MOTO.close();
    VERTEX.close();
  }

  @Test
  void aSubmissionToKubernetesIsOneTraceDownToTheFabric8Calls() {
    var trace = submitAndTrace("tr-k8s", "k8s", s -> s.name().startsWith("kubernetes create "));
    var submit = trace.submit();
    var clientSpans = trace.clientSpansUnder(submit);
    assertThat(clientSpans)
        .as("fabric8 calls under backend submit")
        .anySatisfy(
            s -> {
              assertThat(s.name()).isEqualTo("kubernetes create pytorchjobs");
              assertThat(s.attribute("http.request.method")).isEqualTo("POST");
              assertThat(s.attribute("http.response.status_code")).isEqualTo("201");
            })
        .allSatisfy(
            s -> {
              assertThat(s.kind()).isEqualTo("SPAN_KIND_CLIENT");
              assertThat(s.attribute("trainyard.backend.id")).isEqualTo("k8s");
              assertThat(s.attribute("trainyard.backend.kind")).isEqualTo("kubernetes");
              assertThat(s.attribute("trainyard.backend.operation")).isNotBlank();
            });
  }

  @Test
  void aSubmissionToSageMakerIsOneTraceDownToTheAwsSdkCalls() {
    var trace = submitAndTrace("tr-sm", "sm", s -> s.name().equals("SageMaker.CreateTrainingJob"));
    assertThat(trace.clientSpansUnder(trace.submit()))
        .anySatisfy(
            s -> {
              assertThat(s.name()).isEqualTo("SageMaker.CreateTrainingJob");
              assertThat(s.kind()).isEqualTo("SPAN_KIND_CLIENT");
              assertThat(s.attribute("rpc.system")).isEqualTo("aws-api");
              assertThat(s.attribute("trainyard.backend.operation")).isEqualTo("CreateTrainingJob");
              assertThat(s.attribute("trainyard.backend.id")).isEqualTo("sm");
              assertThat(s.attribute("http.response.status_code")).isEqualTo("200");
            });
  }

  @Test
  void aSubmissionToVertexIsOneTraceDownToTheGrpcCalls() {
    var method = "google.cloud.aiplatform.v1.JobService/CreateCustomJob";
    var trace = submitAndTrace("tr-vx", "vx", s -> s.name().equals(method));
    assertThat(trace.clientSpansUnder(trace.submit()))
        .anySatisfy(
            s -> {
              assertThat(s.name()).isEqualTo(method);
              assertThat(s.kind()).isEqualTo("SPAN_KIND_CLIENT");
              assertThat(s.attribute("rpc.system")).isEqualTo("grpc");
              assertThat(s.attribute("trainyard.backend.operation")).isEqualTo("CreateCustomJob");
              assertThat(s.attribute("trainyard.backend.id")).isEqualTo("vx");
              assertThat(s.attribute("rpc.grpc.status_code")).isEqualTo("0");
            });

    // Later steps are traces of their own: the job's id on them, a link to the submission.
    var jobId = trace.submit().attribute("trainyard.job.id");
    var submission = trace.submit().traceId();
    var later =
        RECEIVER.await(
            all ->
                all.stream()
                    .anyMatch(
                        s ->
                            s.name().equals("reconcile SUBMITTED")
                                && jobId.equals(s.attribute("trainyard.job.id"))),
            WITHIN);
    var step =
        later.stream()
            .filter(s -> s.name().equals("reconcile SUBMITTED"))
            .filter(s -> jobId.equals(s.attribute("trainyard.job.id")))
            .findFirst()
            .orElseThrow();
    assertThat(step.traceId()).isNotEqualTo(submission);
    assertThat(step.parentSpanId()).isEqualTo("");
    assertThat(step.linkedTraceIds()).containsExactly(submission);
    assertThat(step.attribute("trainyard.backend.id")).isEqualTo("vx");
  }

  /**
   * Vertex is busy at the first submit: the reconciler's log line about it, written inside the
   * continued trace, carries the trace's id and the request's id (MDC), and the failed gRPC call is
   * an error span.
   */
  @Test
  void aLogLineOfTheContinuedTraceCarriesTheTraceAndRequestIds() {
    var appender =
        new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
    appender.start();
    var logger =
        (ch.qos.logback.classic.Logger)
            org.slf4j.LoggerFactory.getLogger(io.trainyard.gateway.reconcile.JobStepper.class);
    logger.addAppender(appender);
    try {
      VERTEX.failNext("CreateCustomJob", io.grpc.Status.Code.UNAVAILABLE, "busy, try later");
      var traceId = hex(16);
      var requestId = "req-busy-" + hex(4);
      var answer =
          client.post(
              "/v1/jobs",
              token,
              "application/yaml",
              spec("tr-busy", "vx"),
              "traceparent",
              "00-" + traceId + "-" + hex(8) + "-01",
              "X-Request-Id",
              requestId);
      assertThat(answer.status()).as(answer.body()).isEqualTo(201);
      client.awaitState(answer.json().get("id").asText(), "SUBMITTED", token);
      assertThat(appender.list)
          .filteredOn(e -> e.getFormattedMessage().contains("busy at submit"))
          .isNotEmpty()
          .allSatisfy(
              e -> {
                assertThat(e.getMDCPropertyMap()).containsEntry("traceId", traceId);
                assertThat(e.getMDCPropertyMap()).containsEntry("requestId", requestId);
              });
      var spans =
          RECEIVER.await(
              all ->
                  all.stream()
                          .filter(s -> s.traceId().equals(traceId))
                          .filter(s -> s.name().endsWith("/CreateCustomJob"))
                          .count()
                      >= 2,
              WITHIN);
      assertThat(spans)
          .filteredOn(s -> s.traceId().equals(traceId) && s.name().endsWith("/CreateCustomJob"))
          .extracting(s -> s.attribute("rpc.grpc.status_code"))
          .containsExactlyInAnyOrder("14", "0");
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void exportsCarryTheConfiguredHeadersAndTheServiceName() {
    submitAndTrace("tr-hdr", "vx", s -> s.name().startsWith("google.cloud.aiplatform"));
    assertThat(RECEIVER.exportHeaders())
        .allSatisfy(h -> assertThat(h).containsEntry("x-collector-key", COLLECTOR_KEY));
    assertThat(RECEIVER.spans()).allSatisfy(s -> assertThat(s.serviceName()).isEqualTo("ty-it"));
  }

  /** The spans of one submission's trace, checked for shape as they are found. */
  private record Trace(List<ReceivedSpan> spans, ReceivedSpan submit) {
    List<ReceivedSpan> clientSpansUnder(ReceivedSpan parent) {
      return spans.stream()
          .filter(s -> s.parentSpanId().equals(parent.spanId()))
          .filter(s -> s.kind().equals("SPAN_KIND_CLIENT"))
          .toList();
    }
  }

  /**
   * Submits a job pinned to {@code backend} with a caller's {@code traceparent} and request id,
   * waits for the trace to hold a client span matching {@code clientCall}, and checks the chain:
   * server → validate, route → quotes, persist → reconcile PENDING → backend submit → client call.
   */
  private static Trace submitAndTrace(
      String name, String backend, Predicate<ReceivedSpan> clientCall) {
    var traceId = hex(16);
    var callerSpan = hex(8);
    var requestId = "req-" + name + "-" + hex(4);
    var answer =
        client.post(
            "/v1/jobs",
            token,
            "application/yaml",
            spec(name, backend),
            "traceparent",
            "00-" + traceId + "-" + callerSpan + "-01",
            "X-Request-Id",
            requestId);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var jobId = answer.json().get("id").asText();
    client.awaitState(jobId, "SUBMITTED", token);

    Predicate<List<ReceivedSpan>> complete =
        all -> {
          var mine = all.stream().filter(s -> s.traceId().equals(traceId)).toList();
          return mine.stream().anyMatch(clientCall)
              && mine.stream().anyMatch(s -> s.name().equals("POST /v1/jobs"))
              && mine.stream().anyMatch(s -> s.name().equals("persist"))
              && mine.stream().anyMatch(s -> s.name().equals("backend submit"))
              && mine.stream().anyMatch(s -> s.name().equals("reconcile PENDING"));
        };
    var spans =
        RECEIVER.await(complete, WITHIN).stream().filter(s -> s.traceId().equals(traceId)).toList();

    var server = only(spans, "POST /v1/jobs");
    assertThat(server.kind()).isEqualTo("SPAN_KIND_SERVER");
    assertThat(server.parentSpanId())
        .as("continues the caller's traceparent")
        .isEqualTo(callerSpan);
    assertThat(server.attribute("http.route")).isEqualTo("/v1/jobs");
    assertThat(server.attribute("http.response.status_code")).isEqualTo("201");
    var validate = only(spans, "validate");
    var route = only(spans, "route");
    var persist = only(spans, "persist");
    assertThat(List.of(validate, route, persist))
        .allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(server.spanId()));
    var quotes = spans.stream().filter(s -> s.name().equals("backend quote")).toList();
    assertThat(quotes)
        .isNotEmpty()
        .allSatisfy(q -> assertThat(q.parentSpanId()).isEqualTo(route.spanId()))
        .anySatisfy(q -> assertThat(q.attribute("trainyard.backend.id")).isEqualTo(backend));
    var step = only(spans, "reconcile PENDING");
    assertThat(step.parentSpanId()).isEqualTo(persist.spanId());
    assertThat(step.attribute("trainyard.job.id")).isEqualTo(jobId);
    var submit = only(spans, "backend submit");
    assertThat(submit.parentSpanId()).isEqualTo(step.spanId());
    assertThat(submit.attribute("trainyard.backend.id")).isEqualTo(backend);
    assertThat(submit.attribute("trainyard.job.id")).isEqualTo(jobId);
    var call = spans.stream().filter(clientCall).findFirst().orElseThrow();
    assertThat(call.parentSpanId()).isEqualTo(submit.spanId());
    assertThat(call.attribute("trainyard.job.id")).isEqualTo(jobId);
    assertThat(spans)
        .as("the request id on every span of the submission")
        .allSatisfy(s -> assertThat(s.attribute("trainyard.request.id")).isEqualTo(requestId));
    return new Trace(spans, submit);
  }

  private static ReceivedSpan only(List<ReceivedSpan> spans, String name) {
    var named = spans.stream().filter(s -> s.name().equals(name)).toList();
    assertThat(named).as(name + " in " + spans).hasSize(1);
    return named.get(0);
  }

  private static String hex(int bytes) {
    var random = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(random);
    random[0] |= 1; // never all zeros, which W3C forbids
    return java.util.HexFormat.of().formatHex(random);
  }

  private static String spec(String name, String backend) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1}
          placement: {backends: [%s], spot: never}
        """
        .formatted(name, backend);
  }

  private static MotoServer.Running startMoto() {
    try {
      return MotoServer.start();
    } catch (Exception e) {
      throw new IllegalStateException("moto did not start", e);
    }
  }

  private static FakeJobService startVertex() {
    try {
      return new FakeJobService();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String writeConfig() {
    var kubeconfig = CLUSTER.kubeconfig();
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms, submitRetryDelay: 100ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        tracing:
          serviceName: ty-it
          otlp:
            endpoint: %s
            headers: {x-collector-key: %s}
            scheduleDelay: 100ms
        teams:
          ml: {backends: [k8s, sm, vx], namespaces: {k8s: ml-jobs}}
        backends:
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %s
            provider: aws
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
          - type: sagemaker
            id: sm
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            outputPath: s3://ml-out/trainyard/
            endpoint: http://127.0.0.1:%d
            accessKeyId: test
            secretAccessKey: test
            maxAttempts: 1
          - type: vertex
            id: vx
            region: us-central1
            project: ml-prod
            baseOutputDirectory: gs://ml-out/trainyard
            endpoint: %s
            plaintext: true
        """
            .formatted(
                DIR,
                RECEIVER.endpoint(),
                COLLECTOR_KEY,
                DIR.resolve("kubeconfig"),
                MOTO.port(),
                VERTEX.endpoint());
    try {
      Files.writeString(DIR.resolve("kubeconfig"), kubeconfig);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
