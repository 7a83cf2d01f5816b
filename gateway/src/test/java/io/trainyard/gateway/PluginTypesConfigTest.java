package io.trainyard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.trainyard.cost.refresh.AwsPriceListConfig;
import io.trainyard.cost.refresh.GcpBillingCatalogConfig;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Backend blocks and price-refresher blocks are bound by {@code type:} from the class path. */
class PluginTypesConfigTest {

  private static TrainyardConfiguration parse(String yaml) throws Exception {
    var mapper = Jackson.newObjectMapper();
    TrainyardApplication.bindPluginTypes(mapper);
    var factory =
        new YamlConfigurationFactory<>(
            TrainyardConfiguration.class, Validators.newValidator(), mapper, "dw");
    return factory.build(
        path -> new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "trainyard.yml");
  }

  @Test
  void theNamedPriceBlocksKeepWorkingBesideTypedSources() throws Exception {
    var config =
        parse(
            """
            pricing:
              refresh:
                aws: {region: us-east-1}
                sources:
                  - {type: gcp-billing-catalog, apiKey: k}
                  - {type: aws-price-list, region: eu-central-1}
            """);
    var blocks = config.getPricing().getRefresh().blocks();
    assertThat(blocks).hasSize(3);
    assertThat(blocks.get(0)).isEqualTo(new AwsPriceListConfig("us-east-1", null, null, null));
    assertThat(blocks.get(1)).isInstanceOf(GcpBillingCatalogConfig.class);
    assertThat(((AwsPriceListConfig) blocks.get(2)).region()).isEqualTo("eu-central-1");
  }

  @Test
  void anUnknownRefresherTypeIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(
            () -> parse("pricing:\n  refresh:\n    sources:\n      - {type: oracle-prices}\n"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("oracle-prices")
        .hasMessageContaining("aws-price-list")
        .hasMessageContaining("gcp-billing-catalog");
  }

  @Test
  void anUnknownBackendTypeIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> parse("backends:\n  - {type: slurm, id: hpc, region: x}\n"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'slurm'")
        .hasMessageContaining("known type ids = [")
        .hasMessageContaining("local")
        .hasMessageContaining("sagemaker");
  }
}
