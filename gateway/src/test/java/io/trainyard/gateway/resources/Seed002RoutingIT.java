package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.sagemaker.SageMakerStub;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 002's headline through the gateway: the same CPU work fits one m5.2xlarge in us-east-1; on
 * the team's EKS cluster it costs the EC2 price ($0.384/h, plus its share of the control plane's
 * fee), on SageMaker the ml.m5.2xlarge price ($0.461/h). The quote shows both, the job routes to
 * EKS and lands there as a PyTorchJob.
 *
 * <p>EKS is reached as in production: {@code DescribeCluster} through the real SDK client (at a
 * local server answering EKS's REST-JSON, via the block's {@code eksEndpoint}), then fabric8's CRUD
 * API server over TLS, trusted through the CA that DescribeCluster handed out, with the
 * presigned-STS bearer token. SageMaker is the local server speaking its JSON protocol.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class Seed002RoutingIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-seed002");
  private static final CrudApiServer CLUSTER = new CrudApiServer(true);
  private static final List<String> EKS_CALLS = new ArrayList<>();
  private static final HttpServer EKS = eksApi();
  private static final SageMakerStub SAGEMAKER = sageMaker();

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
    CLUSTER.close();
    EKS.stop(0);
    SAGEMAKER.close();
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  @Test
  void theSameWorkIsCheaperOnTheTeamsEksClusterAndGoesThere() {
    var quote = client.post("/v1/quotes", token, "application/yaml", JOB);
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    var decision = quote.json(); // the routing decision, unwrapped
    var eks = offer(decision, "eks");
    var sm = offer(decision, "sm");
    assertThat(eks.get("chosen").asBoolean()).isTrue();
    // One m5.2xlarge node at the EC2 price, plus 1/20 of EKS's $0.10/h control plane.
    assertThat(eks.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.389");
    assertThat(sm.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.461");
    assertThat(eks.get("notes").toString())
        .contains("1 × m5.2xlarge @ $0.384/h + cluster fee share $0.005/h");
    assertThat(sm.get("notes").toString()).contains("1 × ml.m5.2xlarge @ $0.461/h");

    var submitted = client.post("/v1/jobs", token, "application/yaml", JOB);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var job = awaitState(submitted.json().get("id").asText(), "SUBMITTED");
    assertThat(job.get("backend").asText()).isEqualTo("eks");
    var created =
        CLUSTER
            .client()
            .genericKubernetesResources(
                new ResourceDefinitionContext.Builder()
                    .withGroup("kubeflow.org")
                    .withVersion("v1")
                    .withKind("PyTorchJob")
                    .withPlural("pytorchjobs")
                    .withNamespaced(true)
                    .build())
            .inNamespace("ml-jobs")
            .withName(job.get("objectName").asText())
            .get();
    assertThat(created).isNotNull();
    assertThat(EKS_CALLS).contains("GET /clusters/ml-prod");
    assertThat(SAGEMAKER.calls("CreateTrainingJob")).isEmpty();
  }

  @Test
  void aQuoteWithEstimatedHoursRanksByTheWholeJobsCost() {
    var quote =
        client.post("/v1/quotes", token, "application/yaml", JOB + "  estimatedHours: 10\n");
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    var decision = quote.json();
    assertThat(decision.get("rankedBy").asText()).isEqualTo("estimatedTotalUsd");
    var eks = offer(decision, "eks");
    var sm = offer(decision, "sm");
    // 10 h × the hourly price (EKS's includes its control-plane share); SageMaker adds its ML
    // storage volume: 50 GB × 10 h ÷ 730 × $0.154/GB-month = $0.1055 (ml.m5 has no NVMe).
    assertThat(eks.get("estimatedTotalUsd").decimalValue()).isEqualByComparingTo("3.89");
    assertThat(sm.get("estimatedTotalUsd").decimalValue()).isEqualByComparingTo("4.7155");
    assertThat(sm.get("notes").toString()).contains("storage: 50 GB × 1 instance(s) × 10 h");
    assertThat(eks.get("notes").toString())
        .contains("total: $0.389/h × 10 h = $3.89")
        .contains("includes the cluster fee share $0.005/h");
    assertThat(sm.get("notes").toString()).contains("BillableTimeInSeconds");
    assertThat(decision.get("chosen").asText()).isEqualTo("eks");
    assertThat(decision.get("choice").asText())
        .isEqualTo("cheapest: the lowest estimatedTotalUsd, $3.89");

    var hourly = client.post("/v1/quotes", token, "application/yaml", JOB).json();
    assertThat(hourly.get("rankedBy").asText()).isEqualTo("hourlyUsd");
    assertThat(offer(hourly, "eks").has("estimatedTotalUsd")).isFalse();
  }

  @Test
  void cheapestWithinPicksTheFastestOfferNearTheCheapest() {
    var job = JOB.replace("placement: {", "placement: {policy: cheapest-within, within: 1.5, ");
    var quote = client.post("/v1/quotes", token, "application/yaml", job + "  maxRuntime: 2h\n");
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    var decision = quote.json();
    assertThat(decision.get("policy").asText()).isEqualTo("cheapest-within");
    // Neither backend reports free capacity here, so the cheaper one stays first.
    assertThat(decision.get("chosen").asText()).isEqualTo("eks");
    assertThat(decision.get("choice").asText())
        .startsWith("cheapest-within 1.5: the fastest (eks: ")
        .contains("of 2 offer(s) with estimatedTotalUsd at most $1.167 (the cheapest is $0.778)");
  }

  // On demand on both sides: the seed compares list prices; SageMaker managed spot (EC2 spot ×
  // SageMaker's ratio, estimated) would undercut both, as ManagedBackendsIT shows.
  private static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: churn-xgb}
      spec:
        framework: pytorch
        image: registry.example.com/churn:3
        command: [python, train.py]
        resources: {cpus: 6, memory: 24Gi}
        replicas: {master: 1}
        placement: {regions: [us-east-1], spot: never}
      """;

  /** The decision's best offer of {@code backend}. */
  private static JsonNode offer(JsonNode decision, String backend) {
    for (var candidate : decision.get("candidates")) {
      if (candidate.get("backendId").asText().equals(backend) && !candidate.has("rejected")) {
        return candidate;
      }
    }
    throw new AssertionError("no offer of " + backend + " in " + decision);
  }

  private static JsonNode awaitState(String id, String state) {
    return client.awaitState(id, state, token);
  }

  /**
   * EKS's {@code DescribeCluster} ({@code GET /clusters/{name}}, REST-JSON) for one ACTIVE cluster
   * whose API server is {@link #CLUSTER}, as the real service answers it.
   */
  private static HttpServer eksApi() {
    try {
      var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext(
          "/clusters/",
          exchange -> {
            synchronized (EKS_CALLS) {
              EKS_CALLS.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            }
            var endpoint = CLUSTER.url().replaceAll("/$", "");
            var body =
                ("{\"cluster\":{\"name\":\"ml-prod\",\"arn\":\"arn:aws:eks:us-east-1:123456789012:"
                        + "cluster/ml-prod\",\"status\":\"ACTIVE\",\"version\":\"1.31\","
                        + "\"endpoint\":\"%s\",\"certificateAuthority\":{\"data\":\"%s\"}}}")
                    .formatted(endpoint, CLUSTER.caCertificateBase64())
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
          });
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SageMakerStub sageMaker() {
    try {
      return new SageMakerStub();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String writeConfig() {
    // The default credential chain's first link: the STS token is presigned locally with these.
    System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
    System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          ml: {backends: [eks, sm], namespaces: {eks: ml-jobs}}
        backends:
          - type: eks
            id: eks
            region: us-east-1
            clusterName: ml-prod
            eksEndpoint: http://127.0.0.1:%d
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
          - type: sagemaker
            id: sm
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            outputPath: s3://ml-out/trainyard/
            endpoint: %s
            accessKeyId: test
            secretAccessKey: test
            maxAttempts: 1
        """
            .formatted(DIR, EKS.getAddress().getPort(), SAGEMAKER.endpoint());
    try {
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
