package io.trainyard.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import io.trainyard.gateway.metrics.PublicUrl;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** {@code gateway.publicUrl}: an absolute http(s) URL, else the loopback connector once started. */
class GatewayConfigTest {
  private static GatewayConfig bind(String yaml) throws Exception {
    return Jackson.newObjectMapper(new YAMLFactory()).readValue(yaml, GatewayConfig.class);
  }

  @Test
  void aPublicUrlIsAnAbsoluteHttpUrl() throws Exception {
    assertThat(bind("publicUrl: https://trainyard.example.com/api\n").getPublicUrl())
        .isEqualTo(URI.create("https://trainyard.example.com/api"));
    for (var bad :
        new String[] {"ftp://x.example.com", "/relative", "https://x.example.com/?a=1"}) {
      assertThatThrownBy(() -> bind("publicUrl: \"" + bad + "\"\n"))
          .as(bad)
          .hasMessageContaining("gateway.publicUrl");
    }
  }

  @Test
  void unsetItIsTheConnectorOnLoopbackOnceTheServerStarted() throws Exception {
    var url = new PublicUrl(bind("{}").getPublicUrl());
    assertThat(url.get()).isNull();
    url.serverStarted(18080);
    assertThat(url.get()).isEqualTo(URI.create("http://127.0.0.1:18080"));
    assertThat(url.configured()).isFalse();
    var configured = new PublicUrl(URI.create("https://t.example.com"));
    configured.serverStarted(18080);
    assertThat(configured.get()).isEqualTo(URI.create("https://t.example.com"));
  }
}
