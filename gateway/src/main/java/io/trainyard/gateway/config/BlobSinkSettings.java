package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trainyard.audit.AuditErrorCode;
import io.trainyard.audit.AuditException;
import io.trainyard.audit.BlobSinkConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A blob store reached through jclouds: {@code filesystem} (default: a directory under the
 * dataDir), {@code aws-s3}, {@code google-cloud-storage}, {@code azureblob}. Audit exports and job
 * log archives each have one. What each field means per provider: {@link BlobSinkConfig}.
 */
public class BlobSinkSettings {
  private String provider = "filesystem";
  private String container;
  private String prefix = "";
  private String endpoint;
  private String identity;
  private String credential;
  private String credentialFile;
  private String baseDir;

  /** For Jackson. */
  public BlobSinkSettings() {
    this("blobs");
  }

  /** Settings with {@code container} as the default container (a directory, on filesystem). */
  public BlobSinkSettings(String container) {
    this.container = container;
  }

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

  /** The secret half of the credentials; write-only, so it never appears where config is shown. */
  @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
  public String getCredential() {
    return credential;
  }

  @JsonProperty
  public void setCredential(String credential) {
    this.credential = credential;
  }

  /**
   * A file holding the credential, read at startup: for what does not fit a YAML string well, such
   * as a Google service account's key file. Not with {@code credential}.
   */
  @JsonProperty
  public String getCredentialFile() {
    return credentialFile;
  }

  @JsonProperty
  public void setCredentialFile(String credentialFile) {
    this.credentialFile = credentialFile;
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

  /**
   * @throws AuditException {@link AuditErrorCode#CONFIG_INVALID} if the settings are unusable or
   *     the credential file cannot be read
   */
  public BlobSinkConfig toBlobSinkConfig(Path dataDir) {
    var dir = baseDir != null && !baseDir.isBlank() ? baseDir : dataDir.toString();
    return new BlobSinkConfig(provider, container, prefix, endpoint, identity, secret(), dir);
  }

  private String secret() {
    if (credentialFile == null || credentialFile.isBlank()) {
      return credential;
    }
    if (credential != null && !credential.isBlank()) {
      throw new AuditException(
          AuditErrorCode.CONFIG_INVALID,
          "a blob sink takes credential or credentialFile, not both");
    }
    try {
      return Files.readString(Path.of(credentialFile)).strip();
    } catch (IOException e) {
      // The path is not secret; the cause says why (missing, unreadable).
      throw new AuditException(
          AuditErrorCode.CONFIG_INVALID,
          "cannot read blob sink credentialFile " + credentialFile,
          e);
    }
  }
}
