package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * Completion events ({@code webhooks:}): where receivers may be, how deliveries are retried, and
 * the key that encrypts the teams' signing secrets at rest.
 */
public class WebhooksConfig {
  @NotNull private List<String> allowedHosts = List.of();
  private boolean allowLoopback;
  private boolean allowPrivateNetworks = true;

  @Min(1)
  @Max(100)
  private int maxAttempts = 10;

  @NotNull private Duration maxAge = Duration.hours(24);
  @NotNull private Duration initialBackoff = Duration.seconds(10);
  @NotNull private Duration maxBackoff = Duration.hours(1);
  @NotNull private Duration connectTimeout = Duration.seconds(5);
  @NotNull private Duration readTimeout = Duration.seconds(10);
  @NotNull private Duration pollInterval = Duration.seconds(2);
  @NotNull private Duration lease = Duration.seconds(60);

  @Min(1)
  private int batchSize = 20;

  @NotNull private String gatewayName = "trainyard";
  private String secretKey;
  private String secretKeyFile;

  /**
   * Host names receivers may have ({@code ci.example.com}, or {@code *.example.com} for any
   * subdomain); empty allows any host that passes the address checks.
   */
  public List<String> getAllowedHosts() {
    return allowedHosts;
  }

  public void setAllowedHosts(List<String> allowedHosts) {
    this.allowedHosts = allowedHosts;
  }

  /** Receivers on loopback addresses; off by default, as they are the gateway's own neighbours. */
  public boolean isAllowLoopback() {
    return allowLoopback;
  }

  public void setAllowLoopback(boolean allowLoopback) {
    this.allowLoopback = allowLoopback;
  }

  /**
   * Receivers on private networks (10/8, 172.16/12, 192.168/16, fc00::/7), where in-cluster Argo
   * and Tekton listeners live; on by default.
   */
  public boolean isAllowPrivateNetworks() {
    return allowPrivateNetworks;
  }

  public void setAllowPrivateNetworks(boolean allowPrivateNetworks) {
    this.allowPrivateNetworks = allowPrivateNetworks;
  }

  /** Attempts per delivery, the first included, before it is given up as failed. */
  public int getMaxAttempts() {
    return maxAttempts;
  }

  public void setMaxAttempts(int maxAttempts) {
    this.maxAttempts = maxAttempts;
  }

  /** No attempt is made once an event is older than this; the delivery is given up as failed. */
  public Duration getMaxAge() {
    return maxAge;
  }

  public void setMaxAge(Duration maxAge) {
    this.maxAge = maxAge;
  }

  /**
   * The wait after the first failed attempt; it doubles each time, with jitter, up to maxBackoff.
   */
  public Duration getInitialBackoff() {
    return initialBackoff;
  }

  public void setInitialBackoff(Duration initialBackoff) {
    this.initialBackoff = initialBackoff;
  }

  public Duration getMaxBackoff() {
    return maxBackoff;
  }

  public void setMaxBackoff(Duration maxBackoff) {
    this.maxBackoff = maxBackoff;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  /** How long a receiver may take to answer once connected. */
  public Duration getReadTimeout() {
    return readTimeout;
  }

  public void setReadTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
  }

  /** How often each replica looks for due deliveries (new events also wake it at once). */
  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  /**
   * How long a replica holds a delivery it is attempting; longer than connect + read timeouts, so
   * no other replica attempts it at the same time.
   */
  public Duration getLease() {
    return lease;
  }

  public void setLease(Duration lease) {
    this.lease = lease;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  /** Names this gateway in events' {@code source}: {@code /trainyard/<gatewayName>/jobs}. */
  public String getGatewayName() {
    return gatewayName;
  }

  public void setGatewayName(String gatewayName) {
    this.gatewayName = gatewayName;
  }

  /**
   * Base64 of 32 random bytes ({@code openssl rand -base64 32}): the AES-256-GCM key the teams'
   * webhook secrets are encrypted with in the database. Every replica needs the same one. Without
   * it (or {@link #getSecretKeyFile()}) the key is generated into {@code <dataDir>/webhooks/}.
   */
  public String getSecretKey() {
    return secretKey;
  }

  public void setSecretKey(String secretKey) {
    this.secretKey = secretKey;
  }

  /** A file holding {@link #getSecretKey()}'s value instead, e.g. a mounted Kubernetes Secret. */
  public String getSecretKeyFile() {
    return secretKeyFile;
  }

  public void setSecretKeyFile(String secretKeyFile) {
    this.secretKeyFile = secretKeyFile;
  }
}
