package io.trainyard.gateway.config;

import jakarta.validation.constraints.DecimalMin;
import java.math.BigDecimal;

/** How offers are priced beyond the embedded catalog. */
public class PricingConfig {
  @DecimalMin("0")
  private BigDecimal managedPremiumPct;

  /**
   * Added to a VM's price to estimate a managed instance (SageMaker, Vertex) the catalog has no row
   * for; such prices are marked estimated. Unset: no estimates, the offer is rejected.
   */
  public BigDecimal getManagedPremiumPct() {
    return managedPremiumPct;
  }

  public void setManagedPremiumPct(BigDecimal managedPremiumPct) {
    this.managedPremiumPct = managedPremiumPct;
  }
}
