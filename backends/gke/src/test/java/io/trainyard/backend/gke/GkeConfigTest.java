package io.trainyard.backend.gke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code type: gke} block as the gateway binds it: defaults, and every bad field refused. */
class GkeConfigTest {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  /** A real certificate's PEM, base64-encoded as GKE gives it. */
  static final String CA = Base64.getEncoder().encodeToString(TestCertificates.pem());

  private static final String POOLS =
      "nodePools:\n"
          + "  - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus:"
          + " 1}, maxNodes: 10}\n";

  private static final String MINIMAL =
      "type: gke\nid: gke-usc1\nregion: us-central1\nendpoint: 34.118.0.10\ncaCertificate: "
          + CA
          + "\n"
          + POOLS;

  @Test
  void aTrainerBlockDeclaresItsRuntimesAndPodPatches() throws IOException {
    var config =
        bind(
            MINIMAL
                + "flavor: trainer-v2\ntrainerRuntime: torch-distributed\n"
                + "runtimes: {torch-tpu-free: pytorch}\ntrainerPodPatches: runtimePatches\n");
    assertThat(config.trainerRuntimes())
        .containsExactly(
            java.util.Map.entry("torch-tpu-free", io.trainyard.spi.spec.Framework.PYTORCH));
    assertThat(config.settings().effectivePodPatches()).isEqualTo("runtimePatches");
  }

  @Test
  void aBlockSaysWhichMpiOperatorTheClusterRuns() throws IOException {
    assertThat(bind(MINIMAL + "mpiOperator: mpi-operator-v2\n").settings().mpiOperator())
        .isEqualTo(io.trainyard.kubeflow.KubeflowWriter.MpiOperator.MPI_OPERATOR_V2);
    assertThat(bind(MINIMAL).settings().mpiOperator())
        .isEqualTo(io.trainyard.kubeflow.KubeflowWriter.MpiOperator.TRAINING_OPERATOR);
  }

  @Test
  void aMinimalBlockTakesGkesDefaults() throws IOException {
    var config = bind(MINIMAL);

    assertThat(config.serverUrl()).isEqualTo("https://34.118.0.10");
    assertThat(config.credentialsPath()).as("application default credentials").isNull();
    assertThat(config.kubeconfigPath()).isNull();
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.discountPct()).isZero();
    var cluster = config.settings();
    assertThat(cluster.provider()).isEqualTo("gcp");
    assertThat(cluster.catalogService()).isEqualTo("gce");
    assertThat(cluster.feeUsdPerHour()).isEqualByComparingTo("0.10");
    assertThat(cluster.admissionTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(cluster.nodePools().get(0).accelerator().gpuType()).isEqualTo("nvidia-t4");
    assertThat(config.toString()).doesNotContain(CA.substring(0, 40));
  }

  @Test
  void everyKeyBinds() throws IOException {
    var config =
        bind(
            """
            type: gke
            id: gke-usc1
            region: us-central1
            project: ml-prod
            cluster: train
            kubeconfig: /etc/trainyard/gke-usc1.kubeconfig
            context: gke_ml-prod_us-central1_train
            credentialsFile: /etc/trainyard/gke-sa.json
            hipaaEligible: true
            discountPct: 12.5
            flavor: kubeflow-v1
            kueueQueue: team-queue
            admissionTimeout: 15m
            feeUsdPerHour: 0
            provider: gcp
            """
                + POOLS);

    assertThat(config.project()).isEqualTo("ml-prod");
    assertThat(config.cluster()).isEqualTo("train");
    assertThat(config.kubeconfigPath()).hasToString("/etc/trainyard/gke-usc1.kubeconfig");
    assertThat(config.context()).isEqualTo("gke_ml-prod_us-central1_train");
    assertThat(config.credentialsPath()).hasToString("/etc/trainyard/gke-sa.json");
    assertThat(config.hipaaEligible()).isTrue();
    assertThat(config.discountPct()).isEqualByComparingTo("12.5");
    assertThat(config.settings().feeUsdPerHour()).as("free tier: no fee").isZero();
    assertThat(config.settings().kueueQueue()).isEqualTo("team-queue");
    assertThat(config.settings().admissionTimeout()).isEqualTo(Duration.ofMinutes(15));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "34.118.0.10 | https://34.118.0.10",
        "34.118.0.10:443 | https://34.118.0.10:443",
        "https://34.118.0.10 | https://34.118.0.10",
        "https://34.118.0.10/ | https://34.118.0.10",
        "HTTPS://gke-0a1b.us-central1.gke.goog | https://gke-0a1b.us-central1.gke.goog",
        "'[2600:1900:4000::1]' | https://[2600:1900:4000::1]",
      })
  void anEndpointIsAHostOrAnHttpsUrl(String endpoint, String url) {
    assertThat(GkeEndpoint.serverUrl(endpoint)).isEqualTo(url);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "id: '' | id is required",
        "region: '' | region is required",
        "endpoint: http://34.118.0.10 | endpoint must be https",
        "endpoint: https://34.118.0.10/api | endpoint must be a host, host:port or https://host[:port]",
        "endpoint: https://user@34.118.0.10 | endpoint must be a host, host:port or https://host[:port]",
        "endpoint: 'a b' | endpoint is not a host or https URL",
        "caCertificate: '' | caCertificate is required with endpoint",
        "caCertificate: not*base64 | caCertificate is not base64",
        "caCertificate: aGVsbG8= | caCertificate does not decode to a PEM certificate",
        "caCertificate: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCm5vcGUKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo= | caCertificate is not a readable X.509 certificate",
        "kubeconfig: /etc/k | endpoint and kubeconfig are two ways to reach the cluster: give one",
        "containerEndpoint: https://container.googleapis.com | containerEndpoint applies only when"
            + " the cluster is looked up through the GKE API",
        "location: '' | location is empty; leave it out to use region",
        "location: US Central | location must be a GCP region or zone (us-central1, us-central1-a)",
        "context: gke_x | context applies only with kubeconfig",
        "credentialsFile: ' ' | credentialsFile is empty; leave it out to use application default credentials",
        "provider: aws | provider of a gke block is always gcp",
        "discountPct: 101 | discountPct must be between 0 and 100",
        "feeUsdPerHour: -0.1 | feeUsdPerHour must be 0 or more",
        "admissionTimeout: soon | admissionTimeout: 'soon' is not a duration",
        "flavor: trainer-v2 | trainerRuntime is required with flavor trainer-v2",
        "nodePools: [] | nodePools must name at least one pool",
        "nodePools: [{name: t4, instanceType: n1-standard-8, maxNodes: 0}] | nodePools.t4.maxNodes must be at least 1",
      })
  void aBadFieldIsRefusedByName(String line, String message) {
    var key = line.substring(0, line.indexOf(':'));
    var yaml =
        MINIMAL
                .lines()
                .filter(
                    l ->
                        !l.startsWith(key + ":")
                            && !(key.equals("nodePools") && l.startsWith("  - ")))
                .reduce("", (a, b) -> a + b + "\n")
            + line
            + "\n";
    assertThatThrownBy(() -> bind(yaml))
        .isInstanceOf(JsonMappingException.class)
        .cause()
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "hipaaEligible: false | the cluster is reached through endpoint (with caCertificate),"
            + " kubeconfig, or project and cluster (looked up through the GKE API): give one",
        "project: ml-prod | (looked up through the GKE API): give one; cluster is missing",
        "cluster: train | (looked up through the GKE API): give one; project is missing",
        "kubeconfig: /etc/k\\ncaCertificate: CA | caCertificate goes with endpoint; with kubeconfig",
        "project: ml-prod\\ncluster: train\\ncaCertificate: CA | caCertificate goes with endpoint;"
            + " a looked-up cluster's CA comes from the GKE API",
        "project: ml-prod\\ncluster: ../x | cluster is not a GKE cluster name",
        "project: 'ml prod'\\ncluster: train | project is not a GKE project name",
        "project: ml-prod\\ncluster: train\\nlocation: '' | location is empty",
        "project: ml-prod\\ncluster: train\\ncontainerEndpoint: 'not a url' | containerEndpoint"
            + " is not a URL",
        "project: ml-prod\\ncluster: train\\ncontainerEndpoint: container.googleapis.com |"
            + " containerEndpoint must be a URL such as https://container.googleapis.com",
        "project: ml-prod\\ncluster: train\\ncontainerEndpoint: https://container.googleapis.com/v1"
            + " | containerEndpoint must be a URL such as https://container.googleapis.com",
        "project: ml-prod\\ncluster: train\\ncontainerEndpoint: ftp://container.googleapis.com |"
            + " containerEndpoint must be a URL such as https://container.googleapis.com",
        "project: ml-prod\\ncluster: train\\ncontainerEndpoint: http://container.googleapis.com |"
            + " containerEndpoint must be https (http only to a loopback address)",
      })
  void theClusterIsReachedExactlyOneWay(String lines, String message) {
    var yaml =
        "type: gke\nid: g\nregion: us-central1\n"
            + lines.replace("\\n", "\n").replace("CA", CA)
            + "\n"
            + POOLS;
    assertThatThrownBy(() -> bind(yaml)).cause().hasMessageContaining(message);
  }

  @Test
  void theDesignsBlockLooksTheClusterUpInItsRegion() throws IOException {
    var config =
        bind(
            "type: gke\nid: gke-usc1\nregion: us-central1\nproject: ml-prod\ncluster: train\n"
                + POOLS);

    assertThat(config.looksUpCluster()).isTrue();
    assertThat(config.clusterLocation()).isEqualTo("us-central1");
    assertThat(config.containerApi()).isEqualTo("https://container.googleapis.com");
    assertThat(config.serverUrl()).isNull();
    assertThat(config.toString())
        .contains("GKE API lookup of projects/ml-prod/locations/us-central1/clusters/train");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://container-psc.p.googleapis.com/ | https://container-psc.p.googleapis.com",
        "HTTPS://container.googleapis.com:443 | https://container.googleapis.com:443",
        "http://127.0.0.1:8080 | http://127.0.0.1:8080",
        "http://localhost:8080/ | http://localhost:8080",
      })
  void aZoneAndAContainerEndpointMoveTheLookup(String containerEndpoint, String api)
      throws IOException {
    var config =
        bind(
            "type: gke\nid: g\nregion: us-central1\nproject: ml-prod\ncluster: train\n"
                + "location: us-central1-a\ncontainerEndpoint: "
                + containerEndpoint
                + "\n"
                + POOLS);

    assertThat(config.clusterLocation()).isEqualTo("us-central1-a");
    assertThat(config.containerApi()).isEqualTo(api);
  }

  @Test
  void withAnEndpointProjectClusterAndLocationOnlyDescribeTheCluster() throws IOException {
    var config = bind(MINIMAL + "project: ml-prod\ncluster: train\nlocation: us-central1-a\n");

    assertThat(config.looksUpCluster()).isFalse();
    assertThat(config.serverUrl()).isEqualTo("https://34.118.0.10");
  }

  @Test
  void anUnknownKeyIsRefused() {
    assertThatThrownBy(() -> bind(MINIMAL + "token: ya29.secret\n"))
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining("token");
  }

  @Test
  void aWrappedCaFromAYamlBlockScalarIsAccepted() throws IOException {
    var wrapped = CA.replaceAll("(.{64})", "$1\n      ");
    var config =
        bind(
            MINIMAL.replace("caCertificate: " + CA, "caCertificate: >-\n      " + wrapped.strip()));
    assertThat(GkeEndpoint.of(config).caCertificate()).isEqualTo(CA);
    assertThat(new String(Base64.getDecoder().decode(CA), StandardCharsets.US_ASCII))
        .startsWith("-----BEGIN CERTIFICATE-----");
  }

  private static GkeConfig bind(String yaml) throws IOException {
    return YAML.readValue(yaml, GkeConfig.class);
  }
}
