package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.pricing.ManagedService;
import io.trainyard.spi.pricing.PricingFacts;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Joining the embedded catalog with what backend modules ship. */
class PricingPluginsTest {
  private static final PriceCatalog EMBEDDED = PriceCatalog.embedded();

  /** A module's facts as a backend module would declare them, rows given as CSV lines. */
  private record Module(String csv, LocalDate compiled, List<ManagedService> services)
      implements PricingFacts {
    @Override
    public InputStream catalogRows() {
      return csv == null
          ? null
          : new ByteArrayInputStream(
              (PriceCatalog.HEADER + "\n" + csv).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public LocalDate catalogCompiled() {
      return compiled;
    }

    @Override
    public List<ManagedService> managedServices() {
      return services;
    }
  }

  private static final String AZURE_ROW =
      "azure,vm,eastus,Standard_D8s_v5,,,,8,32,0.384,0.0768,instance,test source";

  @Test
  void aModulesRowsAndServicesJoinTheEmbeddedOnes() {
    var azure =
        new Module(
            AZURE_ROW,
            LocalDate.of(2020, 1, 2),
            List.of(
                new ManagedService(
                    "azure", "azureml", "vm", "", BigDecimal.ZERO, "https://example.com/aml")));
    var joined = PricingPlugins.join(EMBEDDED, List.of(azure));

    assertThat(joined.catalog().rows()).hasSize(EMBEDDED.rows().size() + 1);
    assertThat(joined.catalog().instance("azure", "vm", "eastus", "Standard_D8s_v5")).isPresent();
    assertThat(joined.catalog().asOf()).isEqualTo(LocalDate.of(2020, 1, 2)); // the oldest part
    var offer =
        joined
            .priceBook(null)
            .price(
                new io.trainyard.spi.Placement(
                    "aml",
                    "azure",
                    "azureml",
                    "eastus",
                    false,
                    List.of(
                        new io.trainyard.spi.PlacementLine(
                            List.of("worker"), "Standard_D8s_v5", 2, null, 0)),
                    null,
                    null,
                    null,
                    List.of()));
    assertThat(offer.price().usdPerHour()).isEqualByComparingTo("0.768");
    assertThat(offer.price().source()).contains("azureml adds no surcharge to compute");
  }

  @Test
  void aModuleWithoutRowsChangesNothing() {
    var joined = PricingPlugins.join(EMBEDDED, List.of(new Module(null, null, List.of())));
    assertThat(joined.catalog().rows()).isEqualTo(EMBEDDED.rows());
    assertThat(joined.catalog().asOf()).isEqualTo(EMBEDDED.asOf());
  }

  @Test
  void aRepeatedRowStopsTheStartNamingBothSources() {
    var repeat =
        new Module("aws,ec2,us-east-1,m5.2xlarge,,,,8,32,0.1,,instance,mine", null, List.of());
    assertThatThrownBy(() -> PricingPlugins.join(EMBEDDED, List.of(repeat)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("repeats the price row aws/ec2/us-east-1/m5.2xlarge")
        .hasMessageContaining("already from: ");
    var twiceInItself = new Module(AZURE_ROW + "\n" + AZURE_ROW, null, List.of());
    assertThatThrownBy(() -> PricingPlugins.join(EMBEDDED, List.of(twiceInItself)))
        .hasMessageContaining("repeats a price row of its own");
  }

  @Test
  void aBadRowNamesTheModuleAndTheLine() {
    var bad = new Module("azure,vm,eastus,X,,,,8,32,not-a-price,,instance,s", null, List.of());
    assertThatThrownBy(() -> PricingPlugins.join(EMBEDDED, List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Module")
        .hasMessageContaining("price catalog line 2");
  }

  @Test
  void twoModulesClaimingOneServiceAreRefused() {
    var service = ManagedService.unpublished("aws", "sagemaker", "ec2", "ml.");
    var one = new Module(null, null, List.of(service));
    var two = new Module(null, null, List.of(service));
    assertThatThrownBy(() -> PricingPlugins.join(EMBEDDED, List.of(one, two)))
        .hasMessageContaining("declares the managed service aws/sagemaker");
  }
}
