package io.trainyard.gateway.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class PostgresServerTest {

  @Test
  void missingBinariesNameTheDebianPackage() {
    assertThatThrownBy(() -> PostgresServer.start(Path.of("/nonexistent/postgresql/bin")))
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasMessageContaining("postgresql-15")
        .hasMessageContaining("/nonexistent/postgresql/bin");
  }
}
