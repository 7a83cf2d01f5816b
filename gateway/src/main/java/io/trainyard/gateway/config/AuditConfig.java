package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.trainyard.audit.BlobSinkConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;

/**
 * The audit trail ({@code audit:}). Keys are needed outside dev mode: the digest signing key and
 * the HMAC key for secret evidence. In dev they are generated into {@code <dataDir>/audit/}.
 */
public class AuditConfig {
  private boolean failClosed = true;
  private String signingKeyFile;
  private String hmacKey;
  private String hmacKeyFile;

  @Min(1)
  private long digestEveryEvents = 1_000;

  @NotNull private Duration digestEvery = Duration.minutes(15);
  private boolean dailyExport = true;
  @Valid @NotNull private Sink sink = new Sink();

  /**
   * Refuse a request whose audit event cannot be written (the default); off, the event is lost and
   * the loss logged.
   */
  @JsonProperty
  public boolean isFailClosed() {
    return failClosed;
  }

  @JsonProperty
  public void setFailClosed(boolean failClosed) {
    this.failClosed = failClosed;
  }

  /** PKCS#8 PEM Ed25519 private key ({@code openssl genpkey -algorithm ed25519}). */
  @JsonProperty
  public String getSigningKeyFile() {
    return signingKeyFile;
  }

  @JsonProperty
  public void setSigningKeyFile(String signingKeyFile) {
    this.signingKeyFile = signingKeyFile;
  }

  /**
   * Base64 of at least 32 random bytes; evidence of secret values is an HMAC with it. Write-only,
   * so that it never appears where the configuration is serialised (its fingerprint).
   */
  @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
  public String getHmacKey() {
    return hmacKey;
  }

  @JsonProperty
  public void setHmacKey(String hmacKey) {
    this.hmacKey = hmacKey;
  }

  /** A file holding {@link #getHmacKey()}'s value instead, e.g. a mounted secret. */
  @JsonProperty
  public String getHmacKeyFile() {
    return hmacKeyFile;
  }

  @JsonProperty
  public void setHmacKeyFile(String hmacKeyFile) {
    this.hmacKeyFile = hmacKeyFile;
  }

  /** A signed digest after this many events ... */
  @JsonProperty
  public long getDigestEveryEvents() {
    return digestEveryEvents;
  }

  @JsonProperty
  public void setDigestEveryEvents(long digestEveryEvents) {
    this.digestEveryEvents = digestEveryEvents;
  }

  /** ... or this long after the last one, whichever comes first. */
  @JsonProperty
  public Duration getDigestEvery() {
    return digestEvery;
  }

  @JsonProperty
  public void setDigestEvery(Duration digestEvery) {
    this.digestEvery = digestEvery;
  }

  /** Export each finished UTC day to the sink as {@code daily-YYYY-MM-DD}. */
  @JsonProperty
  public boolean isDailyExport() {
    return dailyExport;
  }

  @JsonProperty
  public void setDailyExport(boolean dailyExport) {
    this.dailyExport = dailyExport;
  }

  @JsonProperty
  public Sink getSink() {
    return sink;
  }

  @JsonProperty
  public void setSink(Sink sink) {
    this.sink = sink;
  }

  /**
   * Where exports are written, through jclouds: {@code filesystem} (default: {@code
   * <dataDir>/audit-exports}), {@code aws-s3}, {@code google-cloud-storage}, {@code azureblob}.
   */
  public static class Sink {
    private String provider = "filesystem";
    private String container = "audit-exports";
    private String prefix = "";
    private String endpoint;
    private String identity;
    private String credential;
    private String baseDir;

    @JsonProperty
    public String getProvider() {
      return provider;
    }

    @JsonProperty
    public void setProvider(String provider) {
      this.provider = provider;
    }

    /** The bucket (or, for {@code filesystem}, the directory under baseDir). */
    @JsonProperty
    public String getContainer() {
      return container;
    }

    @JsonProperty
    public void setContainer(String container) {
      this.container = container;
    }

    @JsonProperty
    public String getPrefix() {
      return prefix;
    }

    @JsonProperty
    public void setPrefix(String prefix) {
      this.prefix = prefix;
    }

    @JsonProperty
    public String getEndpoint() {
      return endpoint;
    }

    @JsonProperty
    public void setEndpoint(String endpoint) {
      this.endpoint = endpoint;
    }

    @JsonProperty
    public String getIdentity() {
      return identity;
    }

    @JsonProperty
    public void setIdentity(String identity) {
      this.identity = identity;
    }

    @JsonProperty
    public String getCredential() {
      return credential;
    }

    @JsonProperty
    public void setCredential(String credential) {
      this.credential = credential;
    }

    /** For {@code filesystem}: the directory holding the container; default the dataDir. */
    @JsonProperty
    public String getBaseDir() {
      return baseDir;
    }

    @JsonProperty
    public void setBaseDir(String baseDir) {
      this.baseDir = baseDir;
    }

    public BlobSinkConfig toBlobSinkConfig(Path dataDir) {
      var dir = baseDir != null && !baseDir.isBlank() ? baseDir : dataDir.toString();
      return new BlobSinkConfig(provider, container, prefix, endpoint, identity, credential, dir);
    }
  }
}
