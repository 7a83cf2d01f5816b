package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.spi.pricing.PricingFacts;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The rows and the managed service this module brings to the price book. */
class AzureMlPricingFactsTest {

  private static List<PriceRow> rows() throws Exception {
    try (var in = new AzureMlPricingFacts().catalogRows()) {
      return PriceCatalog.parse(in);
    }
  }

  @Test
  void theFactsAreFoundWithServiceLoader() {
    var facts =
        ServiceLoader.load(PricingFacts.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(facts).hasAtLeastOneElementOfType(AzureMlPricingFacts.class);
  }

  /** The cost module's own reader takes every row: what the price book will do at start. */
  @Test
  void everyRowParsesInTheCatalogsSchemaAndNamesItsSource() throws Exception {
    var rows = rows();

    assertThat(rows).hasSizeGreaterThanOrEqualTo(30);
    assertThat(rows)
        .allSatisfy(
            r -> {
              assertThat(r.provider()).isEqualTo("azure");
              assertThat(r.service()).isEqualTo("vm");
              assertThat(r.source()).contains("skypilot-catalog catalogs/v6/azure/vms.csv@");
              assertThat(r.onDemandUsdPerHour()).isPositive();
              if (r.spotUsdPerHour() != null) {
                assertThat(r.spotUsdPerHour()).isLessThan(r.onDemandUsdPerHour());
              }
            });
    var keys = new HashSet<String>();
    rows.forEach(r -> assertThat(keys.add(r.region() + "/" + r.instanceType())).isTrue());
    assertThat(rows).extracting(PriceRow::region).contains("eastus", "westus2", "southcentralus");
  }

  @Test
  void theRowsCoverCpuAndGpuSeriesPeopleTrainOn() throws Exception {
    var eastus =
        rows().stream()
            .filter(r -> r.region().equals("eastus"))
            .map(PriceRow::instanceType)
            .toList();

    assertThat(eastus)
        .contains(
            "Standard_D8s_v5",
            "Standard_E8s_v5",
            "Standard_NC4as_T4_v3",
            "Standard_NC6s_v3",
            "Standard_NC24ads_A100_v4",
            "Standard_ND96asr_v4");
    var a100 =
        rows().stream()
            .filter(
                r ->
                    r.region().equals("eastus")
                        && r.instanceType().equals("Standard_NC24ads_A100_v4"))
            .findFirst()
            .orElseThrow();
    assertThat(a100.gpuType()).isEqualTo("nvidia-a100-80gb");
    assertThat(a100.gpuCount()).isEqualTo(1);
    assertThat(a100.onDemandUsdPerHour()).isEqualByComparingTo("3.673");
  }

  @Test
  void azureMlIsPricedAsItsVmsWithNoSurchargeAndSaysWhereThatIsPublished() {
    var facts = new AzureMlPricingFacts();

    assertThat(facts.managedServices())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.provider()).isEqualTo("azure");
              assertThat(m.service()).isEqualTo("azureml");
              assertThat(m.vmService()).isEqualTo("vm");
              assertThat(m.instancePrefix()).isEmpty();
              assertThat(m.surchargePct()).isEqualByComparingTo(BigDecimal.ZERO);
              assertThat(m.surchargeSource())
                  .startsWith(
                      "https://azure.microsoft.com/en-us/pricing/details/machine-learning/");
              assertThat(m.vmType("Standard_D8s_v5")).isEqualTo("Standard_D8s_v5");
            });
    assertThat(facts.catalogCompiled()).isNotNull();
  }

  /** Placements name provider/service the managed service prices, and sizes the rows have. */
  @Test
  void placementsUseTheManagedServiceAndSizesWithRows() throws Exception {
    var sized = rows().stream().map(PriceRow::instanceType).toList();

    assertThat(AzureVmSizes.DEFAULT_SIZES).allSatisfy(s -> assertThat(sized).contains(s));
    assertThat(AzureMlPlacements.PROVIDER).isEqualTo(AzureMlPricingFacts.AZURE_ML.provider());
    assertThat(AzureMlPlacements.SERVICE).isEqualTo(AzureMlPricingFacts.AZURE_ML.service());
  }
}
