package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.spec.SecretRef;
import java.time.Duration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class VertexConfigTest {

  @Test
  void aMinimalBlockGetsTheCatalogMachinesAndTheRegionalEndpoint() {
    var config =
        TestJobs.config("type: vertex\nid: vertex-usc1\nregion: us-central1\nproject: ml-prod\n");

    assertThat(config.machineTypes()).isEqualTo(VertexConfig.CATALOG_MACHINES);
    assertThat(config.parent()).isEqualTo("projects/ml-prod/locations/us-central1");
    assertThat(config.effectiveEndpoint()).isEqualTo("us-central1-aiplatform.googleapis.com:443");
    assertThat(config.plaintext()).isFalse();
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.effectiveLoggingEndpoint()).isEqualTo("logging.googleapis.com:443");
    assertThat(config.logPollDuration()).isEqualTo(Duration.ofSeconds(10));
  }

  /** Every vertex row of the price catalog has a default machine, so it can be offered. */
  @Test
  void theDefaultMachinesCoverThePriceCatalogsVertexRows() {
    var machines =
        VertexConfig.CATALOG_MACHINES.stream().map(VertexMachineType::machineType).toList();
    var gpus = VertexConfig.CATALOG_MACHINES.stream().map(VertexMachineType::gpuType).toList();

    var catalog = PriceCatalog.embedded();
    assertThat(machines)
        .containsAll(
            catalog.instances("gcp", "vertex", "us-central1").stream()
                .map(PriceRow::instanceType)
                .toList());
    assertThat(gpus)
        .containsAll(
            catalog.rows().stream()
                .filter(r -> r.kind() == PriceRow.Kind.ACCELERATOR)
                .filter(r -> r.provider().equals("gcp") && r.service().equals("vertex"))
                .filter(r -> r.region().equals("us-central1"))
                .map(PriceRow::gpuType)
                .toList());
  }

  @Test
  void bindsEveryFieldAsABackendBlockByType() throws Exception {
    var mapper = TestJobs.YAML.copy();
    mapper.registerSubtypes(VertexConfig.class);
    var config =
        (VertexConfig)
            mapper.readValue(
                """
                type: vertex
                id: vertex-usc1
                region: us-central1
                project: ml-prod
                hipaaEligible: true
                discountPct: 10
                machineTypes:
                  - n1-standard-4
                  - {machineType: n1-standard-8, gpuType: nvidia-t4, gpus: 2}
                  - {machineType: g2-standard-8, vcpus: 8, memoryGiB: 32, gpuType: nvidia-l4, gpus: 1}
                serviceAccount: trainer@ml-prod.iam.gserviceaccount.com
                network: projects/1/global/networks/ml
                encryptionKmsKey: projects/ml-prod/locations/us-central1/keyRings/k/cryptoKeys/c
                baseOutputDirectory: gs://ml-out/trainyard
                secrets: {wandb/api-key: projects/ml-prod/secrets/wandb/versions/3}
                endpoint: 127.0.0.1:7443
                plaintext: true
                loggingEndpoint: 127.0.0.1:7444
                logPollInterval: 250ms
                """,
                BackendConfig.class);

    assertThat(config.hipaaEligible()).isTrue();
    assertThat(config.machineTypes().get(1).acceleratorType()).isEqualTo("NVIDIA_TESLA_T4");
    assertThat(config.machineTypes().get(2).acceleratorType()).isEqualTo("NVIDIA_L4");
    assertThat(config.secretVersion(new SecretRef("wandb", "api-key")))
        .contains("projects/ml-prod/secrets/wandb/versions/3");
    assertThat(config.effectiveEndpoint()).isEqualTo("127.0.0.1:7443");
    assertThat(config.plaintext()).isTrue();
    assertThat(config.effectiveLoggingEndpoint()).isEqualTo("127.0.0.1:7444");
    assertThat(config.logPollDuration()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void refusesNonsenseNamingTheField() {
    var base = "type: vertex\nregion: us-central1\nproject: p\n";
    assertThatThrownBy(() -> TestJobs.config("type: vertex\nregion: us-central1\n"))
        .hasMessageContaining("project");
    assertThatThrownBy(() -> TestJobs.config(base + "baseOutputDirectory: s3://x/\n"))
        .hasMessageContaining("baseOutputDirectory");
    assertThatThrownBy(() -> TestJobs.config(base + "secrets: {wandb/k: my-secret}\n"))
        .hasMessageContaining("Secret Manager version");
    assertThatThrownBy(
            () ->
                TestJobs.config(
                    base + "machineTypes: [{machineType: x, gpuType: nvidia-rtx-9999, gpus: 1}]\n"))
        .hasMessageContaining("acceleratorType");
    assertThatThrownBy(() -> TestJobs.config(base + "machineTypes: [{machineType: x, gpus: 1}]\n"))
        .hasMessageContaining("gpuType");
    assertThatThrownBy(() -> TestJobs.config(base + "logPollInterval: often\n"))
        .hasMessageContaining("logPollInterval");
    assertThatThrownBy(() -> TestJobs.config(base + "logPollInterval: 0ms\n"))
        .hasMessageContaining("logPollInterval must be positive");
  }

  @Test
  void theFactoryIsFoundByKind() {
    var factories =
        ServiceLoader.load(BackendFactory.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(factories)
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo("vertex");
              assertThat(f.configClass()).isEqualTo(VertexConfig.class);
            });
  }
}
