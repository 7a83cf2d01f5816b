package io.trainyard.gateway.metrics;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.TrainingBackend;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Gives an attempt {@value #URL_VARIABLE} and a fresh {@value #TOKEN_VARIABLE} when its job can use
 * them: its backend delivers gateway secrets where only the job reads them ({@link
 * TrainingBackend#deliversGatewaySecrets()}), and the gateway's public URL is one the job can reach
 * (a loopback URL only from a backend whose processes share the gateway's network, {@link
 * TrainingBackend#sharesGatewayNetwork()}: {@code local} without a sandbox). Others get nothing,
 * and their metrics come from their log lines.
 */
public final class MetricsEnvironment {
  public static final String URL_VARIABLE = "TRAINYARD_METRICS_URL";
  public static final String TOKEN_VARIABLE = "TRAINYARD_METRICS_TOKEN";

  private final MetricTokens tokens;
  private final Supplier<URI> publicUrl;

  /**
   * @param publicUrl where jobs reach the gateway ({@code gateway.publicUrl}); null while unknown
   */
  public MetricsEnvironment(MetricTokens tokens, Supplier<URI> publicUrl) {
    this.tokens = tokens;
    this.publicUrl = publicUrl;
  }

  /** {@code attempt}, with the metrics URL and token when its job can use them. */
  public BackendJob apply(BackendJob attempt, TrainingBackend backend) {
    var base = publicUrl.get();
    if (base == null || !backend.deliversGatewaySecrets()) {
      return attempt;
    }
    if (loopback(base) && !backend.sharesGatewayNetwork()) {
      return attempt;
    }
    var url = metricsUrl(base, attempt.jobId());
    var token = tokens.mint(attempt.jobId(), attempt.attempt());
    return attempt.withGatewaySecretEnv(Map.of(URL_VARIABLE, url, TOKEN_VARIABLE, token));
  }

  /** {@code <publicUrl>/v1/jobs/<id>/metrics}. */
  public static String metricsUrl(URI base, String jobId) {
    var text = base.toString();
    return (text.endsWith("/") ? text.substring(0, text.length() - 1) : text)
        + "/v1/jobs/"
        + jobId
        + "/metrics";
  }

  static boolean loopback(URI url) {
    var host = url.getHost();
    if (host == null || host.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      // A literal address only: no name is looked up for this.
      if (host.matches("[0-9.]+") || host.startsWith("[")) {
        return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
      }
      return false;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
