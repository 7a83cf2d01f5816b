package io.trainyard.gateway.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The start-up benchmark ({@code bench/startup.sh}, docs/benchmarks.md "Start-up") in its shortest
 * form: one round, cold and warm, with the class-data-sharing archive the package phase built. It
 * checks that the scenario runs and that the archive is there and usable, never how fast.
 */
class StartupBenchIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /**
   * Written by the package phase, which fails when it cannot write it; absent only when built with
   * -Dcds.skip=true.
   */
  @BeforeEach
  void archiveBuilt() {
    assumeTrue(
        Files.isRegularFile(ROOT.resolve("gateway/target/trainyard.jsa")),
        "built with -Dcds.skip=true: no archive");
  }

  @Test
  void oneRoundOfTheStartupBenchmarkRunsWithTheArchive() throws Exception {
    var out = Files.createTempFile("startup-bench", ".log");
    var bench =
        new ProcessBuilder("bash", "bench/startup.sh", "1")
            .directory(ROOT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    bench.environment().put("MODES", "cds");
    bench.environment().put("APP_PORT", String.valueOf(freePort()));
    bench.environment().put("ADMIN_PORT", String.valueOf(freePort()));
    var process = bench.start();
    try {
      assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("finished").isTrue();
      var report = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as(report).isZero();
      assertThat(report).contains("round 1 cds: cold ").contains("cds warm: ");
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(out);
    }
  }

  @Test
  void theArchiveFitsTheJarAndAJvmItDoesNotFitStillStarts() throws Exception {
    var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var archive = "-XX:SharedArchiveFile=" + ROOT.resolve("gateway/target/trainyard.jsa");
    var jar = ROOT.resolve("gateway/target/trainyard.jar").toString();
    // -Xshare:on refuses to start unless the archive maps: it was built for this jar and JVM.
    assertThat(run(java, "-Xshare:on", archive, "-jar", jar, "--version")).startsWith("0\n");
    // Without the jar it was built for (the default -Xshare:auto): one warning, and it runs.
    assertThat(run(java, archive, "-version"))
        .startsWith("0\n")
        .contains("Unable to use shared archive");
  }

  /** The exit code, a new line, then the output. */
  private static String run(String... command) throws Exception {
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    return process.exitValue() + "\n" + output;
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
