package io.trainyard.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationFactory;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import jakarta.validation.Validator;
import java.io.IOException;

/**
 * Reads {@code trainyard.yml} as Dropwizard does; without a file (zero-config mode) the defaults
 * are the configuration's own constructor, unless a {@code dw.*} system property overrides one of
 * them, which Dropwizard's factory then applies to the defaults as it would to a file.
 *
 * <p>Why not always Dropwizard's factory: before it reads anything it walks every configuration
 * class for what a {@code dw.*} override may name, then binds and validates the tree, which is
 * about a third of the main thread's work in a warm zero-config start (issue 19, docs/benchmarks.md
 * "Start-up"). Defaults bound from an empty document are the constructor's; that they are valid is
 * {@code TrainyardConfigurationFactoryTest}'s to check, once, rather than every start's.
 */
final class TrainyardConfigurationFactory implements ConfigurationFactory<TrainyardConfiguration> {
  private final Validator validator;
  private final ObjectMapper mapper;
  private final String prefix;
  private YamlConfigurationFactory<TrainyardConfiguration> yaml;

  TrainyardConfigurationFactory(Validator validator, ObjectMapper mapper, String prefix) {
    this.validator = validator;
    this.mapper = mapper;
    this.prefix = prefix;
  }

  @Override
  public TrainyardConfiguration build(ConfigurationSourceProvider provider, String path)
      throws IOException, ConfigurationException {
    return yaml().build(provider, path);
  }

  /** Zero-config mode: the defaults, bound to loopback and run locally. */
  @Override
  public TrainyardConfiguration build() throws IOException, ConfigurationException {
    var config = overridden() ? yaml().build() : new TrainyardConfiguration();
    config.markZeroConfig(System.getProperty(prefix + ".auth.mode") != null);
    return config;
  }

  /** Whether a system property sets a configuration field ({@code -Ddw.server.…=}). */
  private boolean overridden() {
    var start = prefix + ".";
    return System.getProperties().stringPropertyNames().stream().anyMatch(n -> n.startsWith(start));
  }

  private YamlConfigurationFactory<TrainyardConfiguration> yaml() {
    if (yaml == null) {
      yaml =
          new YamlConfigurationFactory<>(TrainyardConfiguration.class, validator, mapper, prefix);
    }
    return yaml;
  }
}
