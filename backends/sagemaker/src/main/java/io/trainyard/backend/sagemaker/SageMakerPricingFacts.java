package io.trainyard.backend.sagemaker;

import io.trainyard.spi.pricing.ManagedService;
import io.trainyard.spi.pricing.PricingFacts;
import java.util.List;

/**
 * SageMaker's training instances are EC2 instances named {@code ml.<type>}. AWS publishes no
 * surcharge figure (each {@code ml.*} type has its own price, in the catalog where known), so a
 * type the catalog lacks is estimated from EC2 with the operator's premium. Managed spot training
 * has no per-instance price either: the price book uses the EC2 spot price times the catalog's
 * {@code ml.*}/EC2 on-demand ratio, marked estimated.
 */
public final class SageMakerPricingFacts implements PricingFacts {
  @Override
  public List<ManagedService> managedServices() {
    return List.of(ManagedService.unpublished("aws", "sagemaker", "ec2", "ml."));
  }
}
