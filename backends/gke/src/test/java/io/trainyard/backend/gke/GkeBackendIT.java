package io.trainyard.backend.gke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.TestJobs;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.MutableClock;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GKE backend built from its configuration block, as the gateway builds it: found by kind,
 * reaching a TLS API server at its endpoint with its CA, authenticated by a service-account key
 * whose tokens come from a local Google token endpoint.
 */
class GkeBackendIT {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private static final String T4_SPEC =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [python, train.py]
      resources: {gpus: 1, gpuType: nvidia-t4, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 1}
      """;

  @TempDir Path dir;
  private FakeGoogleTokenEndpoint google;
  private CrudApiServer cluster;
  private MutableClock clock;
  private Path keyFile;
  private final List<TrainingBackend> opened = new ArrayList<>();

  @BeforeEach
  void start() {
    google = new FakeGoogleTokenEndpoint();
    cluster = new CrudApiServer(true);
    clock = new MutableClock();
    keyFile = google.writeKey(dir.resolve("trainyard-gke.json"));
  }

  @AfterEach
  void stop() {
    opened.forEach(TrainingBackend::close);
    cluster.close();
    google.close();
  }

  @Test
  void aJobSubmittedToTheGkeBackendAppearsInTheTeamsNamespaceWithEveryRequestAuthenticated()
      throws Exception {
    var backend = backend(block("endpoint: " + endpoint() + "\ncaCertificate: " + ca() + "\n"));

    assertThat(backend.kind()).isEqualTo("gke");
    assertThat(backend.id()).isEqualTo("gke-usc1");
    assertThat(backend.health().healthy()).isTrue();
    var spec = TestJobs.spec(T4_SPEC);
    var proposals = backend.placements(spec);
    assertThat(proposals.rejections()).isEmpty();
    var placement = proposals.placements().get(0);
    assertThat(placement.provider()).isEqualTo("gcp");
    assertThat(placement.service()).isEqualTo("gce");
    assertThat(placement.lines())
        .allSatisfy(
            line -> {
              assertThat(line.instanceType()).isEqualTo("n1-standard-8");
              assertThat(line.gpuType()).isEqualTo("nvidia-t4");
            });
    // GKE's management fee by default, shared by the pool's 10 nodes: 2 nodes → 0.02/h.
    assertThat(placement.clusterFeeUsdPerHour()).isEqualByComparingTo("0.02");

    var ref = backend.submit(TestJobs.job(spec, placement));

    var created =
        cluster
            .client()
            .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
            .inNamespace("nlp-jobs")
            .withName(ref.name())
            .get();
    assertThat(created).isNotNull();
    assertThat(created.getMetadata().getLabels()).containsEntry("trainyard.io/team", "nlp");
    assertThat(cluster.authorizations()).isNotEmpty().containsOnly("Bearer ya29.fake-1");
    assertThat(google.issued()).isEqualTo(1);
    assertThat(google.refusals()).isEmpty();
  }

  @Test
  void aClusterNamedOnlyByProjectAndNameIsLookedUpThroughTheGkeApi() throws Exception {
    try (var gke = new FakeGkeApi(google::hasIssued)) {
      gke.cluster("ml-prod", "us-central1", "train", "RUNNING", clusterHostPort(), ca());
      // The design's block: project, cluster, region, pools; the GKE API is the stub.
      var backend = backend(block("containerEndpoint: " + gke.url() + "\n"));

      assertThat(gke.requests())
          .containsExactly(
              "GET /v1/projects/ml-prod/locations/us-central1/clusters/train Bearer ya29.fake-1");
      var spec = TestJobs.spec(T4_SPEC);
      var placement = backend.placements(spec).placements().get(0);
      var ref = backend.submit(TestJobs.job(spec, placement));

      var created =
          cluster
              .client()
              .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
              .inNamespace("nlp-jobs")
              .withName(ref.name())
              .get();
      assertThat(created).isNotNull();
      assertThat(created.getMetadata().getLabels()).containsEntry("trainyard.io/team", "nlp");
      assertThat(cluster.authorizations()).isNotEmpty().containsOnly("Bearer ya29.fake-1");
      assertThat(google.issued()).as("one token, for the lookup and the cluster").isEqualTo(1);
      assertThat(google.refusals()).isEmpty();
    }
  }

  @Test
  void aZonalClusterIsLookedUpInItsLocationAndNotFoundInTheRegion() throws Exception {
    try (var gke = new FakeGkeApi(google::hasIssued)) {
      gke.cluster("ml-prod", "us-central1-a", "train", "RUNNING", clusterHostPort(), ca());

      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(
              "gke-usc1: cluster train (project ml-prod, location us-central1) does not exist"
                  + " (404 from the GKE API NOT_FOUND: Not found:"
                  + " projects/ml-prod/locations/us-central1/clusters/train.)")
          .hasMessageContaining("a zonal cluster needs location: its zone");

      var backend =
          backend(block("containerEndpoint: " + gke.url() + "\nlocation: us-central1-a\n"));
      assertThat(backend.health().healthy()).isTrue();
      assertThat(gke.requests())
          .as("each backend has its own token provider")
          .last()
          .isEqualTo(
              "GET /v1/projects/ml-prod/locations/us-central1-a/clusters/train Bearer ya29.fake-2");
    }
  }

  @Test
  void aServiceAccountWithoutClustersGetIsToldWhichPermissionItLacks() {
    try (var gke = new FakeGkeApi(google::hasIssued)) {
      var name = FakeGkeApi.name("ml-prod", "us-central1", "train");
      gke.answer(
          name,
          403,
          "PERMISSION_DENIED",
          "Required \"container.clusters.get\" permission(s) for \"" + name + "\".");

      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .isInstanceOf(BackendException.Unauthenticated.class)
          .hasMessageContaining("gke-usc1: cluster train (project ml-prod, location us-central1)")
          .hasMessageContaining(
              "the service account lacks IAM permission container.clusters.get in project"
                  + " ml-prod (roles/container.clusterViewer grants it)")
          .hasMessageContaining("403 PERMISSION_DENIED")
          .hasMessageNotContaining("ya29.");
    }
  }

  @Test
  void anOutageOfTheGkeApiIsRetryableAndARefusedTokenUnauthenticatedSoTheGatewayStillStarts() {
    try (var gke = new FakeGkeApi(google::hasIssued)) {
      var name = FakeGkeApi.name("ml-prod", "us-central1", "train");
      gke.answer(name, 503, "UNAVAILABLE", "The service is currently unavailable.");
      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .isInstanceOf(BackendException.Retryable.class)
          .hasMessageContaining("the GKE API answered 503 UNAVAILABLE");

      gke.answer(name, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .isInstanceOf(BackendException.Unauthenticated.class)
          .hasMessageContaining("refused the access token (401")
          .hasMessageNotContaining("ya29.");
    }
    // Nothing listens there: the API cannot be reached.
    assertThatThrownBy(() -> backend(block("containerEndpoint: http://127.0.0.1:9\n")))
        .isInstanceOf(BackendException.Retryable.class)
        .hasMessageContaining("cannot be reached");
  }

  @Test
  void aClusterThatIsNotRunningOrLacksItsEndpointOrCaIsRefused() {
    try (var gke = new FakeGkeApi(google::hasIssued)) {
      gke.cluster("ml-prod", "us-central1", "train", "PROVISIONING", null, null);
      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .isInstanceOf(BackendException.Retryable.class)
          .hasMessage(
              "gke-usc1: cluster train (project ml-prod, location us-central1) is PROVISIONING"
                  + " (Cluster is being created.), not RUNNING: jobs cannot run there now");

      gke.cluster("ml-prod", "us-central1", "train", "RUNNING", null, ca());
      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .hasMessage(
              "gke-usc1: cluster train (project ml-prod, location us-central1): the GKE API gives"
                  + " no endpoint");

      gke.cluster("ml-prod", "us-central1", "train", "RECONCILING", clusterHostPort(), null);
      assertThatThrownBy(() -> backend(block("containerEndpoint: " + gke.url() + "\n")))
          .hasMessage(
              "gke-usc1: cluster train (project ml-prod, location us-central1): the GKE API gives"
                  + " no masterAuth.clusterCaCertificate");
    }
  }

  @Test
  void aKubeconfigGivesTheServerAndCaButNeverItsUser() throws Exception {
    var kubeconfig = dir.resolve("gke.kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
          - name: gke_ml-prod_us-central1_train
            cluster: {server: "%s", certificate-authority-data: "%s"}
        users:
          - name: gke_ml-prod_us-central1_train
            user:
              exec:
                apiVersion: client.authentication.k8s.io/v1beta1
                command: gke-gcloud-auth-plugin-that-is-not-installed
                provideClusterInfo: true
        contexts:
          - name: gke_ml-prod_us-central1_train
            context: {cluster: gke_ml-prod_us-central1_train, user: gke_ml-prod_us-central1_train}
        current-context: gke_ml-prod_us-central1_train
        """
            .formatted(endpoint(), ca()));
    var backend = backend(block("kubeconfig: " + kubeconfig + "\n"));

    assertThat(backend.health().healthy()).isTrue();
    assertThat(cluster.authorizations()).containsExactly("Bearer ya29.fake-1");
  }

  @Test
  void aRefusedTokenMakesTheBackendUnhealthy() throws Exception {
    var backend = backend(block("endpoint: " + endpoint() + "\ncaCertificate: " + ca() + "\n"));
    assertThat(backend.health().healthy()).isTrue();
    cluster.clearExpectations();
    cluster
        .expect()
        .get()
        .withPath("/version")
        .andReturn(401, CrudApiServer.status(401, "Unauthorized", "Unauthorized"))
        .always();

    var health = backend.health();

    assertThat(health.healthy()).isFalse();
    assertThat(health.message()).startsWith("credentials refused: GET /version: Unauthorized");
    assertThat(cluster.authorizations()).containsOnly("Bearer ya29.fake-1");
  }

  @Test
  void aKeyGoogleNoLongerAcceptsMakesTheBackendUnhealthyAtItsNextRefresh() {
    var backend = backend(block("endpoint: " + endpoint() + "\ncaCertificate: " + ca() + "\n"));
    assertThat(backend.health().healthy()).isTrue();
    google.revokeKey();
    assertThat(backend.health().healthy()).as("the current token is still good").isTrue();

    clock.advance(Duration.ofMinutes(56));
    var health = backend.health();

    assertThat(health.healthy()).isFalse();
    assertThat(health.message())
        .startsWith("credentials refused: ")
        .contains("Google refused the credentials (400 invalid_grant: Invalid JWT Signature.)")
        .doesNotContain("ya29.");
  }

  @Test
  void aServerTheConfiguredCaDidNotSignIsNotTalkedTo() throws Exception {
    try (var impostor = new CrudApiServer(true)) {
      var backend =
          backend(
              block("endpoint: localhost:" + impostor.port() + "\ncaCertificate: " + ca() + "\n"));

      var health = backend.health();

      assertThat(health.healthy()).isFalse();
      assertThat(health.message()).startsWith("unreachable: ");
      assertThat(impostor.authorizations()).as("no token reached the impostor").isEmpty();
    }
  }

  private String block(String reach) {
    return """
        type: gke
        id: gke-usc1
        region: us-central1
        project: ml-prod
        cluster: train
        credentialsFile: %s
        nodePools:
          - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
        """
            .formatted(keyFile)
        + reach;
  }

  private TrainingBackend backend(String yaml) {
    @SuppressWarnings("unchecked")
    var factory =
        (BackendFactory<BackendConfig>)
            ServiceLoader.load(BackendFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.kind().equals("gke"))
                .findFirst()
                .orElseThrow();
    var mapper = YAML.copy();
    mapper.registerSubtypes(factory.configClass());
    try {
      var config = mapper.readValue(yaml, BackendConfig.class);
      assertThat(config).isInstanceOf(GkeConfig.class);
      var backend = factory.create(config, new BackendContext(PriceCatalog.embedded(), dir, clock));
      opened.add(backend);
      return backend;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private String endpoint() {
    return cluster.url();
  }

  /**
   * The test API server as the stub's {@code endpoint}. GKE gives a bare IP address, meaning https
   * on 443; this server listens on another port, so the stub answers {@code host:port}, which the
   * lookup reads as a configured {@code endpoint} is read (host, host:port or https URL). The host
   * is the one the server's certificate names, as GKE's endpoint is in its cluster certificate.
   */
  private String clusterHostPort() {
    var url = URI.create(endpoint());
    return url.getHost() + ":" + url.getPort();
  }

  private String ca() {
    return cluster.caCertificateBase64();
  }
}
