package io.trainyard.spi.pricing;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A managed training service whose machines are a VM service's (SageMaker on EC2, Vertex AI on
 * Compute Engine, Azure ML on Azure VMs). Where the catalog has no row of the managed service's
 * own, its instance is priced as the matching VM plus the surcharge.
 *
 * @param provider the catalog's provider, e.g. {@code aws}
 * @param service the managed service as placements name it, e.g. {@code sagemaker}
 * @param vmService the VM service whose rows price it, e.g. {@code ec2}
 * @param instancePrefix what the managed service puts before the VM's type ({@code ml.} for
 *     SageMaker), removed to find the VM's row; empty when none
 * @param surchargePct the service's published surcharge on compute, in percent; null when unknown —
 *     the operator's {@code pricing.managedPremiumPct} is used then and the price is marked
 *     estimated
 * @param surchargeSource where {@code surchargePct} is published; null when it is unknown
 */
public record ManagedService(
    String provider,
    String service,
    String vmService,
    String instancePrefix,
    BigDecimal surchargePct,
    String surchargeSource) {
  public ManagedService {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(vmService, "vmService");
    instancePrefix = instancePrefix == null ? "" : instancePrefix;
    if ((surchargePct == null) != (surchargeSource == null)) {
      throw new IllegalArgumentException("a known surcharge needs its source, and only then");
    }
    if (surchargePct != null && surchargePct.signum() < 0) {
      throw new IllegalArgumentException("surchargePct must not be negative");
    }
  }

  /** A service whose surcharge is not published: the operator's premium estimates it. */
  public static ManagedService unpublished(
      String provider, String service, String vmService, String instancePrefix) {
    return new ManagedService(provider, service, vmService, instancePrefix, null, null);
  }

  /** The VM's instance type for one of the managed service's. */
  public String vmType(String instanceType) {
    return !instancePrefix.isEmpty() && instanceType.startsWith(instancePrefix)
        ? instanceType.substring(instancePrefix.length())
        : instanceType;
  }
}
