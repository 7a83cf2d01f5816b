package io.trainyard.audit;

import java.util.Set;

/**
 * Which blob store a {@link JcloudsBlobSink} writes to; the gateway binds it from YAML.
 *
 * <ul>
 *   <li>{@code filesystem} (default): {@code baseDir}/{@code container}/{@code prefix}/...
 *   <li>{@code aws-s3}: bucket {@code container}; {@code identity}/{@code credential} are the
 *       access key id and secret; {@code endpoint} for an S3-compatible server (path-style requests
 *       are then used)
 *   <li>{@code google-cloud-storage}: {@code credential} is the service account's key file (the
 *       JSON the Cloud console downloads; {@code identity} may then be left out, and token grants
 *       go to the key's {@code token_uri}), or its private key PEM with {@code identity} the
 *       service account's e-mail (grants then go to Google's token endpoint); {@code endpoint} for
 *       a server of the GCS JSON API other than Google's
 *   <li>{@code azureblob}: {@code identity} is the storage account, {@code credential} its key
 *       (requests are signed with Shared Key); {@code endpoint} for an emulator or private
 *       endpoint, path-style with the account as the first path segment, e.g. Azurite's {@code
 *       http://127.0.0.1:10000/devstoreaccount1}
 *   <li>{@code transient}: in memory, for tests
 * </ul>
 *
 * <p>A store that turns the credentials down fails with {@link AuditErrorCode#SINK_ACCESS_DENIED}.
 *
 * @param prefix prepended to every blob name (with a {@code /}); may be empty
 * @param endpoint overrides the provider's endpoint, or null
 * @param baseDir the directory of the {@code filesystem} provider; ignored by the others
 */
public record BlobSinkConfig(
    String provider,
    String container,
    String prefix,
    String endpoint,
    String identity,
    String credential,
    String baseDir) {

  public static final Set<String> PROVIDERS =
      Set.of("filesystem", "aws-s3", "google-cloud-storage", "azureblob", "transient");

  public BlobSinkConfig {
    provider = provider == null || provider.isBlank() ? "filesystem" : provider;
    if (!PROVIDERS.contains(provider)) {
      throw new AuditException(
          AuditErrorCode.CONFIG_INVALID,
          "blob sink provider must be one of " + PROVIDERS + ", not " + provider);
    }
    if (container == null || container.isBlank()) {
      throw new AuditException(AuditErrorCode.CONFIG_INVALID, "blob sink container is required");
    }
    prefix = prefix == null ? "" : prefix.replaceAll("^/+|/+$", "");
    if (provider.equals("filesystem") && (baseDir == null || baseDir.isBlank())) {
      throw new AuditException(AuditErrorCode.CONFIG_INVALID, "filesystem sink needs baseDir");
    }
  }

  /** The default: a directory {@code baseDir/audit}. */
  public static BlobSinkConfig filesystem(String baseDir) {
    return new BlobSinkConfig("filesystem", "audit", "", null, null, null, baseDir);
  }

  /** Without the credential, for logs and error messages. */
  @Override
  public String toString() {
    return "BlobSinkConfig[provider="
        + provider
        + ", container="
        + container
        + ", prefix="
        + prefix
        + ", endpoint="
        + endpoint
        + ", identity="
        + identity
        + ", baseDir="
        + baseDir
        + "]";
  }
}
