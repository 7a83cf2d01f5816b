package io.trainyard.backend.sagemaker;

import java.util.List;

/** The VPC a training job's instances join: {@code VpcConfig} of every CreateTrainingJob. */
public record SageMakerVpc(List<String> subnets, List<String> securityGroups) {
  public SageMakerVpc {
    subnets = subnets == null ? List.of() : List.copyOf(subnets);
    securityGroups = securityGroups == null ? List.of() : List.copyOf(securityGroups);
    if (subnets.isEmpty() || securityGroups.isEmpty()) {
      throw new IllegalArgumentException(
          "vpc needs subnets and securityGroups, at least one of each");
    }
  }
}
