package io.trainyard.gateway.testing;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole gateway in the test's JVM, as the ITs of the REST surface start it: its configuration
 * written to {@code dir/trainyard.yml}, the application and admin ports chosen free at start.
 */
public final class DevApp {
  private DevApp() {}

  public static DropwizardAppExtension<TrainyardConfiguration> onFreePorts(Path dir, String yaml) {
    var file = dir.resolve("trainyard.yml");
    try {
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DropwizardAppExtension<>(
        TrainyardApplication.class,
        file.toString(),
        ConfigOverride.config("server.applicationConnectors[0].port", "0"),
        ConfigOverride.config("server.adminConnectors[0].port", "0"));
  }
}
