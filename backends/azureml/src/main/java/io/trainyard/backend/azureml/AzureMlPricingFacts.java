package io.trainyard.backend.azureml;

import io.trainyard.spi.pricing.ManagedService;
import io.trainyard.spi.pricing.PricingFacts;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * What Azure brings to the price book: Azure VM rows (provider {@code azure}, service {@code vm})
 * and Azure ML as a managed service priced as those VMs with no surcharge, which is what Azure
 * publishes. Registered for {@link java.util.ServiceLoader}.
 */
public final class AzureMlPricingFacts implements PricingFacts {
  /** Azure ML's pricing page: compute is billed at the VM's own rate, with no ML surcharge. */
  static final String NO_SURCHARGE_SOURCE =
      "https://azure.microsoft.com/en-us/pricing/details/machine-learning/"
          + " (no additional charge for Azure Machine Learning; compute is billed at VM rates)";

  static final ManagedService AZURE_ML =
      new ManagedService(
          AzureMlPlacements.PROVIDER,
          AzureMlPlacements.SERVICE,
          AzureMlPlacements.VM_SERVICE,
          "",
          BigDecimal.ZERO,
          NO_SURCHARGE_SOURCE);

  /** When {@code prices/azure-vm.csv} was compiled; see {@code prices/SOURCES.md}. */
  static final LocalDate COMPILED = LocalDate.of(2026, 12, 1);

  @Override
  public InputStream catalogRows() {
    return AzureVmSizes.open();
  }

  @Override
  public LocalDate catalogCompiled() {
    return COMPILED;
  }

  @Override
  public List<ManagedService> managedServices() {
    return List.of(AZURE_ML);
  }
}
