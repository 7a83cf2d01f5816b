package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoGatewayCommandTest {

  @Test
  void theGatewayStartsWithTheClassArchiveBuiltBesideItsJar(@TempDir Path dir) throws Exception {
    var jar = Files.writeString(dir.resolve("trainyard.jar"), "");
    Files.writeString(dir.resolve("trainyard.jsa"), "");

    assertThat(DemoGateway.javaCommand(jar, "server"))
        .endsWith(
            "-XX:SharedArchiveFile=" + dir.resolve("trainyard.jsa"),
            "-jar",
            jar.toString(),
            "server");
  }

  @Test
  void withoutAnArchiveItStartsPlainly(@TempDir Path dir) throws Exception {
    var jar = Files.writeString(dir.resolve("trainyard.jar"), "");

    assertThat(DemoGateway.javaCommand(jar, "dev-token", "--user", "alice"))
        .hasSize(6)
        .noneMatch(option -> option.startsWith("-XX:SharedArchiveFile"))
        .endsWith("-jar", jar.toString(), "dev-token", "--user", "alice");
  }
}
