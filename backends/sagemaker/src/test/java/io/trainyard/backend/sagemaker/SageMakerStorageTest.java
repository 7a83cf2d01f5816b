package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which ml.* types bill the ML storage volume: SageMaker's ResourceConfig VolumeSizeInGB reference
 * (docs.aws.amazon.com/sagemaker/latest/APIReference/API_ResourceConfig.html) names ml.p4d, ml.g4dn
 * and ml.g5 as NVMe types without a gp2 volume and ml.c5, ml.p2 as EBS-only; the rest by their EC2
 * instance store (docs.aws.amazon.com/ec2/latest/instancetypes/).
 */
class SageMakerStorageTest {
  @ParameterizedTest(name = "{0}: instance store {1}")
  @CsvSource({
    "ml.p4d.24xlarge, true",
    "ml.g4dn.xlarge, true",
    "ml.g5.12xlarge, true",
    "ml.p5.48xlarge, true",
    "ml.m5d.2xlarge, true",
    "ml.c5.4xlarge, false",
    "ml.p2.xlarge, false",
    "ml.m5.2xlarge, false",
    "ml.p3.2xlarge, false",
  })
  void nvmeTypesProvisionNoBilledVolume(String type, boolean instanceStore) {
    assertThat(SageMakerStorage.hasInstanceStore(type)).isEqualTo(instanceStore);
    assertThat(SageMakerStorage.note(type, 50))
        .contains(instanceStore ? "no ML storage volume" : "50 GB ML storage volume");
  }
}
