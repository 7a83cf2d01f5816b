package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URI;

/**
 * The gateway as others reach it ({@code gateway:}).
 *
 * <pre>{@code
 * gateway:
 *   publicUrl: https://trainyard.example.com   # where jobs and browsers reach the API
 * }</pre>
 *
 * <p>{@code publicUrl} is where jobs post their metrics ({@code TRAINYARD_METRICS_URL}) and where
 * browsers are sent back to (the dashboard, the IdP's redirect URIs). Unset, it is the application
 * HTTP connector on this host, {@code http://127.0.0.1:<port>}: fine for {@code local} jobs and a
 * browser on the same machine; jobs on a cluster then get no metrics URL (they cannot reach a
 * loopback address) and their metrics come from their log lines.
 */
public class GatewayConfig {
  private URI publicUrl;

  @JsonProperty
  public URI getPublicUrl() {
    return publicUrl;
  }

  @JsonProperty
  public void setPublicUrl(URI publicUrl) {
    if (publicUrl != null) {
      var scheme = publicUrl.getScheme();
      if (!"http".equals(scheme) && !"https".equals(scheme) || publicUrl.getHost() == null) {
        throw new IllegalArgumentException(
            "gateway.publicUrl must be an absolute http(s) URL such as"
                + " https://trainyard.example.com");
      }
      if (publicUrl.getRawQuery() != null || publicUrl.getRawFragment() != null) {
        throw new IllegalArgumentException("gateway.publicUrl must have no query or fragment");
      }
    }
    this.publicUrl = publicUrl;
  }
}
