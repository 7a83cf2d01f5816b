package io.trainyard.backend.sagemaker;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which training instances get the ML storage volume a job asks for ({@code VolumeSizeInGB}, billed
 * per GB-month) and which run on their own NVMe instance storage instead, which is not billed
 * apart: "When using an ML instance with NVMe SSD volumes, SageMaker doesn't provision Amazon EBS
 * General Purpose SSD (gp2) storage ... ML instance families with the NVMe-type instance storage
 * include ml.p4d, ml.g4dn, and ml.g5" —
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ResourceConfig.html
 * (VolumeSizeInGB). Families with instance storage beyond those named: EC2's instance store
 * volumes, https://docs.aws.amazon.com/ec2/latest/instancetypes/ (the {@code d} families, and g5,
 * g6, p5). Pure.
 */
final class SageMakerStorage {
  private static final Set<String> NVME_FAMILIES =
      Set.of("g4dn", "g5", "g6", "g6e", "p3dn", "p4d", "p4de", "p5", "p5e", "p5en");

  /** A family with a {@code d} after its generation has instance storage: m5d, c5d, m6id, r5dn. */
  private static final Pattern D_FAMILY = Pattern.compile("[a-z]+\\d+[a-z]*d[a-z]*");

  private SageMakerStorage() {}

  static boolean hasInstanceStore(String mlType) {
    var type = mlType.startsWith("ml.") ? mlType.substring(3) : mlType;
    var dot = type.indexOf('.');
    var family = dot < 0 ? type : type.substring(0, dot);
    return NVME_FAMILIES.contains(family) || D_FAMILY.matcher(family).matches();
  }

  /** For the quote's notes. */
  static String note(String mlType, int volumeSizeGb) {
    return hasInstanceStore(mlType)
        ? mlType
            + " trains on its NVMe instance storage: no ML storage volume is provisioned or"
            + " billed (ResourceConfig VolumeSizeInGB)"
        : "each instance gets a "
            + volumeSizeGb
            + " GB ML storage volume (volumeSizeGb), billed per GB-month for the run";
  }
}
