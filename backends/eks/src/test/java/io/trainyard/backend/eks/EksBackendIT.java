package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.TestJobs;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.MotoServer;
import io.trainyard.testkit.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An eks block end to end: the factory builds the backend from configuration, DescribeCluster
 * answers from moto with the SDK's default credential chain, and the Kubernetes calls go to a TLS
 * mock API server trusted through the CA handed over, each carrying the IAM token of that moment.
 * The only test seam is the factory's API-server swap (moto's endpoint is a fake host).
 */
@ExtendWith(MotoServer.class)
class EksBackendIT {
  /** A 1-master, 2-worker PyTorch job of one GPU each, as the kubernetes ITs submit. */
  private static final String SPEC =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [python, train.py]
      resources: {gpus: 1, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      """;

  /** Where EKS would say the API server is, with the server's certificate as the cluster CA. */
  private static EksClusterEndpoint endpoint(CrudApiServer cluster) {
    return new EksClusterEndpoint(URI.create(cluster.url()), cluster.caCertificateBase64());
  }

  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock();
  private final AtomicReference<EksClusterEndpoint> described = new AtomicReference<>();
  private CrudApiServer cluster;
  private String clusterName;
  private TrainingBackend backend;

  @BeforeAll
  static void credentials() {
    MotoEks.useTestCredentials();
  }

  @BeforeEach
  void start() throws Exception {
    cluster = new CrudApiServer(true);
    clusterName = "ml-" + UUID.randomUUID().toString().substring(0, 8);
    MotoEks.createCluster(clusterName);
    var config = EksConfigTest.read(MotoEks.block("eks-use1", clusterName));
    var factory =
        new EksBackendFactory(
            fromEks -> {
              described.set(fromEks);
              return endpoint(cluster);
            });
    backend = factory.create(config, new BackendContext(PriceCatalog.embedded(), dataDir, clock));
  }

  @AfterEach
  void stop() {
    backend.close();
    cluster.close();
  }

  @Test
  void aJobSubmittedThroughTheBlockAppearsInTheTeamsNamespaceWithAnIamToken() throws Exception {
    assertThat(backend.kind()).isEqualTo("eks");
    assertThat(backend.id()).isEqualTo("eks-use1");
    var spec = TestJobs.spec(SPEC);
    // Not before DescribeCluster has answered (the first placements call asks AWS); then as the
    // cluster's backend says, which has listed pending pods by then.
    assertThat(backend.placementsFromMemory()).isFalse();
    var proposals = backend.placements(spec);
    assertThat(backend.placementsFromMemory()).isTrue();
    assertThat(proposals.rejections()).isEmpty();
    var placement = proposals.placements().get(0);
    assertThat(placement.provider()).isEqualTo("aws");
    assertThat(placement.service()).isEqualTo("ec2");

    var ref = backend.submit(TestJobs.job(spec, placement));

    assertThat(described.get().apiServer().getHost()).endsWith(".us-east-1.eks.amazonaws.com");
    assertThat(endpoint(cluster).apiServer().getScheme()).isEqualTo("https");
    var job =
        cluster
            .client()
            .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
            .inNamespace("nlp-jobs")
            .withName(ref.name())
            .get();
    assertThat(job).isNotNull();
    var create =
        cluster.drainRequests().stream()
            .filter(r -> r.getMethod().equals("POST") && r.getPath().contains("/pytorchjobs"))
            .findFirst()
            .orElseThrow();
    var url = PresignedUrl.ofToken(bearer(create));
    assertThat(url.url().getPort()).isEqualTo(motoPort());
    assertThat(url.query())
        .containsEntry("Action", "GetCallerIdentity")
        .containsEntry("X-Amz-SignedHeaders", "host;x-k8s-aws-id");
    assertThat(url.query().get("X-Amz-Credential")).startsWith("test/");

    // As on any cluster, pods are held for the gateway's log archive, then handed back.
    assertThat(backend.keepsLogs()).isFalse();
    backend.cleanup(ref);
    @SuppressWarnings("unchecked")
    var restored =
        (java.util.Map<String, Object>)
            cluster
                .client()
                .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
                .inNamespace("nlp-jobs")
                .withName(ref.name())
                .get()
                .getAdditionalProperties()
                .get("spec");
    assertThat(restored.get("runPolicy").toString()).doesNotContain("cleanPodPolicy=None");
  }

  @Test
  void aTokenTenMinutesOldIsReplacedAndTheServerReceivesTheNewOne() throws Exception {
    assertThat(backend.health().healthy()).isTrue();
    var first = bearer(lastVersionRequest(cluster.drainRequests()));
    assertThat(PresignedUrl.ofToken(first).signedAt())
        .isEqualTo(clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));

    clock.advance(Duration.ofMinutes(5));
    assertThat(backend.health().healthy()).isTrue();
    assertThat(bearer(lastVersionRequest(cluster.drainRequests()))).isEqualTo(first);

    clock.advance(Duration.ofMinutes(6));
    assertThat(backend.health().healthy()).isTrue();
    var second = bearer(lastVersionRequest(cluster.drainRequests()));

    assertThat(second).isNotEqualTo(first);
    assertThat(PresignedUrl.ofToken(second).signedAt())
        .isEqualTo(clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  }

  @Test
  void aTokenTheApiServerRefusesMakesTheBackendUnhealthy() {
    assertThat(backend.health().healthy()).isTrue();
    cluster.clearExpectations();
    cluster
        .expect()
        .get()
        .withPath("/version")
        .andReturn(
            401,
            new StatusBuilder()
                .withStatus("Failure")
                .withCode(401)
                .withReason("Unauthorized")
                .withMessage("Unauthorized")
                .build())
        .always();

    var health = backend.health();

    assertThat(health.healthy()).isFalse();
    assertThat(health.message()).startsWith("credentials refused: GET /version: Unauthorized");
    assertThat(health.message()).doesNotContain("k8s-aws-v1.");
  }

  private int motoPort() {
    return Integer.parseInt(
        MotoServer.endpoint().substring(MotoServer.endpoint().lastIndexOf(':') + 1));
  }

  private static RecordedRequest lastVersionRequest(List<RecordedRequest> requests) {
    return requests.stream()
        .filter(r -> r.getPath().equals("/version"))
        .reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError("no GET /version in " + requests.size()));
  }

  private static String bearer(RecordedRequest request) {
    var authorization = request.getHeader("Authorization");
    assertThat(authorization).startsWith("Bearer k8s-aws-v1.");
    return authorization.substring("Bearer ".length());
  }
}
