package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import io.trainyard.cost.refresh.AwsPriceListConfig;
import io.trainyard.cost.refresh.GcpBillingCatalogConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;

/** How offers are priced beyond the embedded catalog. */
public class PricingConfig {
  @DecimalMin("0")
  private BigDecimal managedPremiumPct;

  @Valid @NotNull private Refresh refresh = new Refresh();

  /**
   * Refreshing the embedded catalog from the providers' price APIs; each refresher runs only when
   * its block is present.
   *
   * @param every how often (default 24h)
   * @param aws the AWS Price List API (EC2 and SageMaker on-demand prices)
   * @param gcp the Cloud Billing Catalog (GCE and Vertex AI prices)
   */
  public record Refresh(Duration every, AwsPriceListConfig aws, GcpBillingCatalogConfig gcp) {
    public Refresh() {
      this(null, null, null);
    }

    public Refresh {
      every = every == null ? Duration.hours(24) : every;
    }
  }

  public Refresh getRefresh() {
    return refresh;
  }

  public void setRefresh(Refresh refresh) {
    this.refresh = refresh;
  }

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
