package io.trainyard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;

/** Zero-config mode's defaults, built without Dropwizard's factory, are what it would build. */
class TrainyardConfigurationFactoryTest {
  private final Validator validator = Validators.newValidator();
  private final com.fasterxml.jackson.databind.ObjectMapper mapper = Jackson.newObjectMapper();

  {
    TrainyardApplication.bindPluginTypes(mapper);
  }

  @Test
  void theDefaultsAreWhatDropwizardBindsFromNoFileAndTheyAreValid() throws Exception {
    var fast = new TrainyardConfigurationFactory(validator, mapper, "dw").build();
    var dropwizard =
        new YamlConfigurationFactory<>(TrainyardConfiguration.class, validator, mapper, "dw")
            .build();
    dropwizard.markZeroConfig();

    assertThat(fast.isZeroConfig()).isTrue();
    assertThat(tree(fast)).isEqualTo(tree(dropwizard));
    assertThat(validator.validate(fast)).isEmpty();
  }

  /** The configuration as JSON; the server's allowed methods are a set, compared sorted. */
  private com.fasterxml.jackson.databind.JsonNode tree(TrainyardConfiguration config) {
    var tree = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(config);
    var server = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("server");
    var methods = new java.util.TreeSet<String>();
    server.get("allowedMethods").forEach(m -> methods.add(m.asText()));
    server.set("allowedMethods", mapper.valueToTree(methods));
    return tree;
  }

  @Test
  void aDwSystemPropertyStillOverridesADefault() throws Exception {
    System.setProperty("dw.maxSpecBytes", "12345");
    try {
      var config = new TrainyardConfigurationFactory(validator, mapper, "dw").build();
      assertThat(config.getMaxSpecBytes()).isEqualTo(12345);
      assertThat(config.isZeroConfig()).isTrue();
    } finally {
      System.clearProperty("dw.maxSpecBytes");
    }
  }

  @Test
  void anAuthModeAskedForWithoutAFileIsKeptNotTurnedIntoDev() throws Exception {
    System.setProperty("dw.auth.mode", "oidc");
    try {
      var config = new TrainyardConfigurationFactory(validator, mapper, "dw").build();
      assertThat(config.getAuth().getMode())
          .isEqualTo(io.trainyard.gateway.config.AuthConfig.Mode.OIDC);
      assertThat(config.isZeroConfig()).isTrue();
    } finally {
      System.clearProperty("dw.auth.mode");
    }
    var plain = new TrainyardConfigurationFactory(validator, mapper, "dw").build();
    assertThat(plain.getAuth().getMode())
        .isEqualTo(io.trainyard.gateway.config.AuthConfig.Mode.DEV);
  }
}
