package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import io.trainyard.cost.refresh.AwsPriceListConfig;
import io.trainyard.cost.refresh.GcpBillingCatalogConfig;
import io.trainyard.spi.pricing.PriceFeedConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** How offers are priced beyond the embedded catalog. */
public class PricingConfig {
  @DecimalMin("0")
  private BigDecimal managedPremiumPct;

  @Valid @NotNull private Refresh refresh = new Refresh();

  /**
   * Refreshing the catalog from the providers' price APIs; each refresher runs only when its block
   * is present.
   *
   * @param every how often (default 24h)
   * @param aws the AWS Price List API (EC2 and SageMaker on-demand prices); the same as a {@code
   *     type: aws-price-list} source
   * @param gcp the Cloud Billing Catalog (GCE and Vertex AI prices); the same as a {@code type:
   *     gcp-billing-catalog} source
   * @param sources refreshers by {@code type:}, as the modules on the class path offer them (e.g.
   *     {@code azure-retail} from the Azure ML backend)
   */
  public record Refresh(
      Duration every,
      AwsPriceListConfig aws,
      GcpBillingCatalogConfig gcp,
      List<@NotNull PriceFeedConfig> sources) {
    public Refresh() {
      this(null, null, null, null);
    }

    public Refresh {
      every = every == null ? Duration.hours(24) : every;
      sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** Every block, the two named ones first. */
    public List<PriceFeedConfig> blocks() {
      var all = new ArrayList<PriceFeedConfig>();
      if (aws != null) {
        all.add(aws);
      }
      if (gcp != null) {
        all.add(gcp);
      }
      all.addAll(sources);
      return all;
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
   * for, where the service publishes no surcharge of its own; such prices are marked estimated.
   * Unset: no estimates, the offer is rejected.
   */
  public BigDecimal getManagedPremiumPct() {
    return managedPremiumPct;
  }

  public void setManagedPremiumPct(BigDecimal managedPremiumPct) {
    this.managedPremiumPct = managedPremiumPct;
  }
}
