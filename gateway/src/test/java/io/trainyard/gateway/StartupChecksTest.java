package io.trainyard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.AuthConfig;
import org.junit.jupiter.api.Test;

/** Dev auth mints tokens for anyone, so where it may run is checked before anything starts. */
class StartupChecksTest {
  private final ObjectMapper mapper = mapper();

  @Test
  void zeroConfigBindsEverythingToLoopbackAndRunsLocally() {
    var config = new TrainyardConfiguration();
    config.markZeroConfig();
    checks(config).applyDefaults();
    checks(config).refuseUnsafeDevMode();
    var server = (DefaultServerFactory) config.getServerFactory();
    assertThat(bindHost(server.getApplicationConnectors().get(0))).isEqualTo("127.0.0.1");
    assertThat(bindHost(server.getAdminConnectors().get(0))).isEqualTo("127.0.0.1");
    assertThat(config.getBackends()).extracting(b -> b.id()).containsExactly("local");
  }

  @Test
  void theAdminPortStaysOnLoopbackUnlessConfiguredOtherwise() {
    var config = oidc("https://sso.example.com/realms/training");
    config.setBackends(new java.util.ArrayList<>(java.util.List.of(local())));
    checks(config).applyDefaults();
    var server = (DefaultServerFactory) config.getServerFactory();
    assertThat(bindHost(server.getAdminConnectors().get(0))).isEqualTo("127.0.0.1");
    assertThat(bindHost(server.getApplicationConnectors().get(0))).isNull();
  }

  @Test
  void devModeRefusesEveryInterface() {
    var config = new TrainyardConfiguration();
    config.getAuth().setMode(AuthConfig.Mode.DEV);
    assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
        .hasMessageContaining("binds only to loopback")
        .hasMessageContaining("every interface");
    ((HttpConnectorFactory) server(config).getApplicationConnectors().get(0))
        .setBindHost("0.0.0.0");
    assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode()).hasMessageContaining("0.0.0.0");
  }

  @Test
  void devModeRefusesPostgres() {
    var config = new TrainyardConfiguration();
    config.markZeroConfig();
    config.getDatabase().setUrl("jdbc:postgresql://db:5432/trainyard");
    checks(config).applyDefaults();
    assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
        .hasMessageContaining("refuses to run with PostgreSQL");
  }

  @Test
  void anEmptyIssuerIsAnErrorNeverAFallBackToDev() {
    for (var issuer : new String[] {null, "", "  "}) {
      var config = oidc(issuer);
      assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
          .hasMessageContaining("auth.issuer is required");
      assertThat(config.getAuth().getMode()).isEqualTo(AuthConfig.Mode.OIDC);
    }
  }

  @Test
  void aConfiguredGatewayNeedsABackend() {
    var config = oidc("https://sso.example.com/realms/training");
    assertThatThrownBy(() -> checks(config).applyDefaults())
        .hasMessageContaining("configure at least one backend");
  }

  private StartupChecks checks(TrainyardConfiguration config) {
    return new StartupChecks(config, mapper);
  }

  private static TrainyardConfiguration oidc(String issuer) {
    var config = new TrainyardConfiguration();
    config.getAuth().setIssuer(issuer);
    return config;
  }

  private io.trainyard.spi.BackendConfig local() {
    return mapper.convertValue(
        java.util.Map.of("type", "local"), io.trainyard.spi.BackendConfig.class);
  }

  private static DefaultServerFactory server(TrainyardConfiguration config) {
    return (DefaultServerFactory) config.getServerFactory();
  }

  private static String bindHost(io.dropwizard.jetty.ConnectorFactory connector) {
    return ((HttpConnectorFactory) connector).getBindHost();
  }

  private static ObjectMapper mapper() {
    var mapper = Jackson.newObjectMapper();
    for (var f : BackendRegistry.factories().values()) {
      mapper.registerSubtypes(new NamedType(f.configClass(), f.kind()));
    }
    return mapper;
  }
}
