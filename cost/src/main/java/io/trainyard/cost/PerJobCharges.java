package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Map;

/**
 * What a platform charges per job rather than per hour, where a published source says so. Only
 * cited facts are here; a service without a row gets a note that none is known, never a guess.
 */
final class PerJobCharges {
  /** A charge per job (may be zero) and its source. */
  record Charge(BigDecimal usd, String fact) {}

  private static final Map<String, Charge> BY_SERVICE =
      Map.of(
          "aws/sagemaker",
          new Charge(
              BigDecimal.ZERO,
              "SageMaker bills training by the second of wall-clock time × instance count, no"
                  + " per-job fee (DescribeTrainingJob BillableTimeInSeconds,"
                  + " https://docs.aws.amazon.com/sagemaker/latest/APIReference/"
                  + "API_DescribeTrainingJob.html)"),
          "gcp/vertex",
          new Charge(
              BigDecimal.ZERO,
              "Vertex AI custom training is priced per node hour of the machines and accelerators"
                  + " it runs, with no per-job fee or minimum stated"
                  + " (https://cloud.google.com/vertex-ai/pricing, custom-trained models); the"
                  + " staging and output buckets are Cloud Storage, billed apart"));

  private PerJobCharges() {}

  static Charge of(String provider, String service) {
    var known = BY_SERVICE.get(provider + "/" + service);
    return known != null
        ? known
        : new Charge(BigDecimal.ZERO, "no per-job charge known for " + provider + "/" + service);
  }
}
