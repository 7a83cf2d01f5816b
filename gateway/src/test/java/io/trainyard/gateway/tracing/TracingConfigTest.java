package io.trainyard.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.trainyard.gateway.config.TracingConfig;
import org.junit.jupiter.api.Test;

/** The {@code tracing:} block: off by default, validated, its header values never written out. */
class TracingConfigTest {
  private static final YamlConfigurationFactory<TracingConfig> FACTORY =
      new YamlConfigurationFactory<>(
          TracingConfig.class, Validators.newValidator(), Jackson.newObjectMapper(), "tracing");

  private static TracingConfig parse(String yaml) throws Exception {
    return FACTORY.build(
        path ->
            new java.io.ByteArrayInputStream(
                yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        "tracing.yml");
  }

  @Test
  void isOffByDefaultAndThenBuildsNoSdk() throws Exception {
    var config = parse("serviceName: trainyard\n");
    assertThat(config.enabled()).isFalse();
    var tracing = GatewayTracing.from(config);
    assertThat(tracing.enabled()).isFalse();
    assertThat(tracing.openTelemetry()).isSameAs(io.opentelemetry.api.OpenTelemetry.noop());
  }

  @Test
  void headerValuesAreNeverSerialisedSoNeitherTheAuditedHashNorALogSeesThem() throws Exception {
    var config =
        parse(
            """
            otlp:
              endpoint: http://127.0.0.1:4318
              headers: {x-honeycomb-team: hc-secret-value}
            """);
    assertThat(config.getOtlp().getHeaders()).containsEntry("x-honeycomb-team", "hc-secret-value");
    var written = Jackson.newObjectMapper().writeValueAsString(config);
    assertThat(written).doesNotContain("hc-secret-value").doesNotContain("x-honeycomb-team");
  }

  @Test
  void refusesAnUnknownProtocolAndARatioOutsideZeroToOne() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> parse("otlp: {endpoint: http://c:4318, protocol: http/json}\n"))
        .hasMessageContaining("otlp.protocol")
        .hasMessageContaining("http/protobuf or grpc");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse("samplerRatio: 1.5\n"))
        .hasMessageContaining("samplerRatio");
  }

  @Test
  void aCollectorsBaseUrlGetsTheTracesPath() {
    assertThat(GatewayTracing.httpEndpoint("http://collector:4318"))
        .isEqualTo("http://collector:4318/v1/traces");
    assertThat(GatewayTracing.httpEndpoint("http://collector:4318/"))
        .isEqualTo("http://collector:4318/v1/traces");
    assertThat(GatewayTracing.httpEndpoint("https://otlp.example.com/custom/traces"))
        .isEqualTo("https://otlp.example.com/custom/traces");
  }
}
