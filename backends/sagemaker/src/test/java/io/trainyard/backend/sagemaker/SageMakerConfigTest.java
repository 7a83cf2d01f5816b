package io.trainyard.backend.sagemaker;

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

class SageMakerConfigTest {

  @Test
  void aMinimalBlockGetsTheCatalogTypesAndDefaults() {
    var config =
        TestJobs.config(
            """
            type: sagemaker
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            """);

    assertThat(config.id()).isEqualTo("sagemaker");
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.discountPct()).isZero();
    assertThat(config.instanceTypes())
        .extracting(SageMakerInstanceType::type)
        .containsExactlyElementsOf(SageMakerConfig.CATALOG_TYPES);
    assertThat(config.inputMode()).isEqualTo("File");
    assertThat(config.volumeSizeGb()).isEqualTo(50);
    assertThat(config.defaultMaxRuntimeDuration()).isEqualTo(Duration.ofHours(24));
    assertThat(config.maxWaitForSpotDuration()).isEqualTo(Duration.ofHours(1));
    assertThat(config.maxAttempts()).isEqualTo(3);
    assertThat(config.endpointUri()).isEmpty();
  }

  /** The default list is the catalog's ml.* rows; a new row there should be offered here too. */
  @Test
  void theDefaultTypesAreThePriceCatalogsSageMakerRows() {
    assertThat(SageMakerConfig.CATALOG_TYPES)
        .containsExactlyInAnyOrderElementsOf(
            PriceCatalog.embedded().instances("aws", "sagemaker", "us-east-1").stream()
                .map(PriceRow::instanceType)
                .toList());
  }

  @Test
  void bindsEveryFieldAsABackendBlockByType() throws Exception {
    var mapper = TestJobs.YAML.copy();
    mapper.registerSubtypes(SageMakerConfig.class);
    var block =
        mapper.readValue(
            """
            type: sagemaker
            id: sagemaker-use1
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            hipaaEligible: true
            discountPct: 12.5
            instanceTypes:
              - ml.g5.xlarge
              - {type: ml.g5.2xlarge, vcpus: 8, memoryGiB: 32, gpuType: nvidia-a10g, gpus: 1}
            inputMode: FastFile
            outputPath: s3://ml-out/trainyard/
            volumeSizeGb: 100
            maxWaitForSpot: 2h
            vpc: {subnets: [subnet-1], securityGroups: [sg-1]}
            networkIsolation: true
            interContainerEncryption: true
            secrets: {wandb/api-key: "arn:aws:secretsmanager:us-east-1:1:secret:wandb"}
            endpoint: http://127.0.0.1:5055
            accessKeyId: test
            secretAccessKey: test
            """,
            BackendConfig.class);

    var config = (SageMakerConfig) block;
    assertThat(config.hipaaEligible()).isTrue();
    assertThat(config.discountPct()).isEqualByComparingTo("12.5");
    assertThat(config.instanceTypes()).hasSize(2);
    assertThat(config.instanceTypes().get(1).declaredShape().gpus()).isEqualTo(1);
    assertThat(config.inputMode()).isEqualTo("FastFile");
    assertThat(config.vpc().subnets()).containsExactly("subnet-1");
    assertThat(config.networkIsolation()).isTrue();
    assertThat(config.interContainerEncryption()).isTrue();
    assertThat(config.secretArn(new SecretRef("wandb", "api-key")))
        .contains("arn:aws:secretsmanager:us-east-1:1:secret:wandb");
    assertThat(config.secretArn(new SecretRef("wandb", "other"))).isEmpty();
    assertThat(config.maxWaitForSpotDuration()).isEqualTo(Duration.ofHours(2));
    assertThat(config.toString()).doesNotContain("secretAccessKey");
  }

  @Test
  void refusesNonsenseNamingTheField() {
    var base = "type: sagemaker\nregion: us-east-1\nroleArn: arn:aws:iam::1:role/r\n";
    assertThatThrownBy(() -> TestJobs.config("type: sagemaker\nregion: us-east-1\n"))
        .hasMessageContaining("roleArn");
    assertThatThrownBy(() -> TestJobs.config(base + "inputMode: Pipe\n"))
        .hasMessageContaining("inputMode");
    assertThatThrownBy(() -> TestJobs.config(base + "outputPath: gs://x/\n"))
        .hasMessageContaining("outputPath");
    assertThatThrownBy(() -> TestJobs.config(base + "secrets: {wandb: arn:x}\n"))
        .hasMessageContaining("<secret>/<key>");
    assertThatThrownBy(() -> TestJobs.config(base + "secrets: {wandb/k: plain}\n"))
        .hasMessageContaining("Secrets Manager ARN");
    assertThatThrownBy(() -> TestJobs.config(base + "instanceTypes: [g5.xlarge]\n"))
        .hasMessageContaining("ml.");
    assertThatThrownBy(() -> TestJobs.config(base + "accessKeyId: x\n"))
        .hasMessageContaining("secretAccessKey");
    assertThatThrownBy(() -> TestJobs.config(base + "maxWaitForSpot: soon\n"))
        .hasMessageContaining("maxWaitForSpot");
    assertThatThrownBy(() -> TestJobs.config(base + "vpc: {subnets: [s]}\n"))
        .hasMessageContaining("securityGroups");
  }

  @Test
  void theFactoryIsFoundByKind() {
    var factories =
        ServiceLoader.load(BackendFactory.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(factories)
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo("sagemaker");
              assertThat(f.configClass()).isEqualTo(SageMakerConfig.class);
            });
  }
}
