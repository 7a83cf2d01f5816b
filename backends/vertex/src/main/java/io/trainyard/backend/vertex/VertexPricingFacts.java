package io.trainyard.backend.vertex;

import io.trainyard.spi.pricing.ManagedService;
import io.trainyard.spi.pricing.PricingFacts;
import java.util.List;

/**
 * Vertex AI custom training runs on Compute Engine machine types of the same names. Google prices
 * each Vertex machine type on its own (in the catalog where known) and publishes no single
 * surcharge, so a type the catalog lacks is estimated from GCE with the operator's premium. Spot
 * VMs ({@code scheduling.strategy: SPOT}) have no Vertex spot row: the price book uses the GCE spot
 * price times the catalog's Vertex/GCE on-demand ratio, marked estimated.
 */
public final class VertexPricingFacts implements PricingFacts {
  @Override
  public List<ManagedService> managedServices() {
    return List.of(ManagedService.unpublished("gcp", "vertex", "gce", ""));
  }
}
