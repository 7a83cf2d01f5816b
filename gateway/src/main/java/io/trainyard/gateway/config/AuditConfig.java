package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonMerge;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * The audit trail ({@code audit:}). Keys are needed outside dev mode: the digest signing key and
 * the HMAC key for secret evidence. In dev they are generated into {@code <dataDir>/audit/}.
 */
public class AuditConfig {
  private boolean failClosed = true;
  private String signingKeyFile;
  private String hmacKey;
  private String hmacKeyFile;
  @NotNull private List<String> previousSigningPublicKeyFiles = List.of();

  @Min(1)
  private long digestEveryEvents = 1_000;

  @NotNull private Duration digestEvery = Duration.minutes(15);
  private boolean dailyExport = true;
  @Valid @NotNull private BlobSinkSettings sink = new BlobSinkSettings("audit-exports");

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

  /**
   * After a rotation of {@link #getSigningKeyFile()}: PEM files of the public keys that signed
   * earlier digests ({@code openssl pkey -in old.pem -pubout}). Exports whose range holds such
   * digests carry these keys, and auditors trust them by id ({@code audit verify --key-id}).
   */
  @JsonProperty
  public List<String> getPreviousSigningPublicKeyFiles() {
    return previousSigningPublicKeyFiles;
  }

  @JsonProperty
  public void setPreviousSigningPublicKeyFiles(List<String> files) {
    this.previousSigningPublicKeyFiles = files == null ? List.of() : List.copyOf(files);
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

  /**
   * Where exports are written (default: {@code <dataDir>/audit-exports}). Merged into the default,
   * so a block that names only its provider keeps the container.
   */
  @JsonProperty
  @JsonMerge
  public BlobSinkSettings getSink() {
    return sink;
  }

  @JsonProperty
  public void setSink(BlobSinkSettings sink) {
    this.sink = sink;
  }
}
