package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendFactory;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class LocalConfigTest {

  @Test
  void everyFieldHasADefault() throws Exception {
    var config = TestJobs.YAML.readValue("type: local\n", LocalConfig.class);

    assertThat(config).isEqualTo(LocalConfig.defaults());
    assertThat(config.id()).isEqualTo("local");
    assertThat(config.region()).isEqualTo("local");
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.discountPct()).isEqualByComparingTo("0");
    assertThat(config.usdPerHour()).isEqualByComparingTo("0");
    assertThat(config.maxConcurrentJobs()).isEqualTo(4);
    assertThat(config.killGrace()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.codePath()).isEqualTo(Path.of("").toAbsolutePath());
    assertThat(config.secretsPath()).isEqualTo(Path.of("data/secrets").toAbsolutePath());
    assertThat(config.sandboxMode()).isEqualTo(SandboxMode.AUTO);
    assertThat(config.uids()).isEqualTo(new UidRange(200000, 200999));
    assertThat(config.workPath())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "trainyard-local"));
    assertThat(config.scratchLimitBytes()).isEqualTo(10L << 30);
    assertThat(config.logLimitBytes()).isEqualTo(1L << 30);
  }

  @Test
  void bindsTheDiskLimitsAndRefusesNonsenseNamingTheField() throws Exception {
    var config =
        TestJobs.YAML.readValue(
            "type: local\nscratchLimit: 500Mi\nlogLimit: 64Ki\n", LocalConfig.class);

    assertThat(config.scratchLimitBytes()).isEqualTo(500L << 20);
    assertThat(config.logLimitBytes()).isEqualTo(64L << 10);
    for (var field : java.util.List.of("scratchLimit", "logLimit")) {
      for (var value : java.util.List.of("lots", "0", "-1Gi")) {
        assertThatThrownBy(
                () ->
                    TestJobs.YAML.readValue(
                        "type: local\n" + field + ": '" + value + "'\n", LocalConfig.class))
            .as(field + ": " + value)
            .hasMessageContaining(field);
      }
    }
  }

  @Test
  void refusesAnUnknownSandboxOrABadUidRangeNamingTheField() {
    assertThatThrownBy(
            () -> TestJobs.YAML.readValue("type: local\nsandbox: docker\n", LocalConfig.class))
        .hasMessageContaining("sandbox must be auto, users, bubblewrap or none");
    for (var range : java.util.List.of("0-10", "5000", "300-200", "a-b", "1000-99999999999")) {
      assertThatThrownBy(
              () ->
                  TestJobs.YAML.readValue(
                      "type: local\nuidRange: '" + range + "'\n", LocalConfig.class))
          .as(range)
          .hasMessageContaining("uidRange");
    }
  }

  @Test
  void bindsAsABackendBlockByType() throws Exception {
    var mapper = TestJobs.YAML.copy();
    mapper.registerSubtypes(LocalConfig.class);
    var config =
        mapper.readValue(
            """
            type: local
            id: my-laptop
            usdPerHour: 0.25
            codeDir: /srv/code
            maxConcurrentJobs: 2
            killGracePeriod: 3s
            """,
            BackendConfig.class);

    assertThat(config).isInstanceOf(LocalConfig.class);
    var local = (LocalConfig) config;
    assertThat(local.id()).isEqualTo("my-laptop");
    assertThat(local.usdPerHour()).isEqualByComparingTo(new BigDecimal("0.25"));
    assertThat(local.codePath()).isEqualTo(Path.of("/srv/code"));
    assertThat(local.maxConcurrentJobs()).isEqualTo(2);
    assertThat(local.killGrace()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void refusesNonsenseNamingTheField() {
    assertThatThrownBy(
            () -> TestJobs.YAML.readValue("type: local\nmaxConcurrentJobs: 0\n", LocalConfig.class))
        .isInstanceOf(ValueInstantiationException.class)
        .hasMessageContaining("maxConcurrentJobs");
    assertThatThrownBy(
            () ->
                TestJobs.YAML.readValue("type: local\nkillGracePeriod: soon\n", LocalConfig.class))
        .hasMessageContaining("killGracePeriod");
    assertThatThrownBy(
            () -> TestJobs.YAML.readValue("type: local\nusdPerHour: -1\n", LocalConfig.class))
        .hasMessageContaining("usdPerHour");
  }

  @Test
  void theFactoryIsFoundByKind() {
    var factories =
        ServiceLoader.load(BackendFactory.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(factories)
        .anySatisfy(
            f -> {
              assertThat(f.kind()).isEqualTo("local");
              assertThat(f.configClass()).isEqualTo(LocalConfig.class);
            });
  }
}
