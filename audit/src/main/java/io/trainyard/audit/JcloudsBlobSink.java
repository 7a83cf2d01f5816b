package io.trainyard.audit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;
import org.jclouds.ContextBuilder;
import org.jclouds.azure.storage.config.AuthType;
import org.jclouds.azure.storage.config.AzureStorageProperties;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.filesystem.reference.FilesystemConstants;
import org.jclouds.http.HttpResponseException;
import org.jclouds.location.reference.LocationConstants;
import org.jclouds.logging.slf4j.config.SLF4JLoggingModule;
import org.jclouds.oauth.v2.config.OAuthProperties;
import org.jclouds.rest.AuthorizationException;
import org.jclouds.s3.reference.S3Constants;

/**
 * A {@link BlobSink} over an Apache jclouds {@link BlobStore}: the local file system, S3, Google
 * Cloud Storage or Azure Blob by {@link BlobSinkConfig}. Opens one jclouds context, which is
 * long-lived and thread-safe: the gateway closes it on shutdown. The container is created on open
 * if it does not exist.
 *
 * <p>jclouds 2.7.0 is likely the project's last release (it moved to the Apache Attic in 2025);
 * nothing outside this class sees a jclouds type.
 */
public final class JcloudsBlobSink implements BlobSink {
  /** Files above this are uploaded in parts: S3 refuses single uploads over 5 GiB. */
  private static final long MULTIPART_ABOVE = 64L * 1024 * 1024;

  /**
   * The region an S3 endpoint override stands for: jclouds' name for us-east-1 as the endpoint's
   * default, so that no LocationConstraint is sent when a bucket is created (S3 refuses one naming
   * us-east-1) and requests are signed for us-east-1.
   */
  private static final String S3_REGION = org.jclouds.aws.domain.Region.US_STANDARD;

  /**
   * The {@code aud} of a service account's token grant: "When making an access token request this
   * value is always https://oauth2.googleapis.com/token" (Google, "Using OAuth 2.0 for Server to
   * Server Applications", section "Forming the JWT claim set").
   */
  private static final String GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";

  private final BlobStoreContext context;
  private final BlobStore store;
  private final BlobSinkConfig config;

  /** The account, access key id or service account, from the config or the key file. */
  private final String identity;

  private JcloudsBlobSink(BlobStoreContext context, BlobSinkConfig config, String identity) {
    this.context = context;
    this.store = context.getBlobStore();
    this.config = config;
    this.identity = identity;
  }

  /**
   * @throws AuditException {@link AuditErrorCode#SINK_UNAVAILABLE} if the store cannot be reached
   *     or the container cannot be created
   */
  public static JcloudsBlobSink open(BlobSinkConfig config) {
    var properties = overrides(config);
    var identity = config.identity();
    var credential = config.credential();
    if (config.provider().equals("google-cloud-storage")
        && GoogleServiceAccountKey.isKeyJson(credential)) {
      var key = GoogleServiceAccountKey.parse(credential);
      if (identity != null && !identity.isBlank() && !identity.equals(key.clientEmail())) {
        throw new AuditException(
            AuditErrorCode.CONFIG_INVALID,
            "blob sink identity " + identity + " is not the key's client_email");
      }
      identity = key.clientEmail();
      credential = key.privateKeyPem();
      if (key.tokenUri() != null) {
        // Where the key says its grants go, as google-auth-library does; the assertion's audience
        // is the one Google documents for access-token requests, whatever that URI is.
        properties.setProperty("oauth.endpoint", key.tokenUri());
        properties.setProperty(OAuthProperties.AUDIENCE, GOOGLE_TOKEN_AUDIENCE);
      }
    }
    var builder =
        ContextBuilder.newBuilder(config.provider())
            .modules(List.of(new SLF4JLoggingModule()))
            .overrides(properties);
    if (identity != null) {
      builder.credentials(identity, credential);
    }
    if (config.endpoint() != null && !config.endpoint().isBlank()) {
      builder.endpoint(config.endpoint());
    }
    BlobStoreContext context;
    try {
      if (config.provider().equals("filesystem")) {
        Files.createDirectories(Path.of(config.baseDir()));
        ownerOnly(Path.of(config.baseDir()));
      }
      context = builder.buildView(BlobStoreContext.class);
    } catch (IOException | RuntimeException e) {
      throw new AuditException(AuditErrorCode.SINK_UNAVAILABLE, "cannot open " + config, e);
    }
    var sink = new JcloudsBlobSink(context, config, identity);
    try {
      sink.call(() -> sink.ensureContainer());
    } catch (AuditException e) {
      context.close();
      throw e;
    }
    return sink;
  }

  private static Properties overrides(BlobSinkConfig config) {
    var properties = new Properties();
    if (config.provider().equals("filesystem")) {
      properties.setProperty(FilesystemConstants.PROPERTY_BASEDIR, config.baseDir());
    }
    if (config.provider().equals("aws-s3") && config.endpoint() != null) {
      // An S3-compatible server on a plain host name or address cannot serve
      // bucket.host virtual-host names: address the bucket in the path instead.
      properties.setProperty(S3Constants.PROPERTY_S3_VIRTUAL_HOST_BUCKETS, "false");
      // aws-s3 looks up each bucket's region at the region's own AWS endpoint, whatever the
      // endpoint override says: with one region served by the override, no request leaves it.
      properties.setProperty(LocationConstants.PROPERTY_REGIONS, S3_REGION);
      properties.setProperty(
          LocationConstants.PROPERTY_REGION + "." + S3_REGION + "." + LocationConstants.ENDPOINT,
          config.endpoint());
    }
    if (config.provider().equals("azureblob")) {
      // Sign with the Shared Key scheme, not jclouds' default Shared Key Lite: Azure accepts both,
      // Azurite (what the tests run against) only Shared Key, and the signing that is tested
      // should be the one that runs.
      properties.setProperty(
          AzureStorageProperties.AUTH_TYPE, AuthType.AZURE_SHARED_KEY.toString());
    }
    return properties;
  }

  private boolean ensureContainer() {
    return store.containerExists(config.container())
        || store.createContainerInLocation(null, config.container());
  }

  @Override
  public void put(String name, byte[] content) {
    var blob = store.blobBuilder(key(name)).payload(content).contentLength(content.length).build();
    call(() -> store.putBlob(config.container(), blob));
    restrict(name);
  }

  @Override
  public void put(String name, Path file) {
    try {
      long length = Files.size(file);
      var blob = store.blobBuilder(key(name)).payload(file.toFile()).contentLength(length).build();
      putBlob(blob, length);
      restrict(name);
    } catch (IOException e) {
      throw new AuditException(AuditErrorCode.IO_FAILED, "cannot read " + file, e);
    }
  }

  @Override
  public void put(String name, InputStream content, long length) {
    putBlob(store.blobBuilder(key(name)).payload(content).contentLength(length).build(), length);
    restrict(name);
  }

  /**
   * A blob the filesystem provider wrote is made owner-only, and the directories down to it: the
   * provider creates them as the umask says, and archived logs may hold what a job printed.
   */
  private void restrict(String name) {
    if (!config.provider().equals("filesystem")) {
      return;
    }
    var container = Path.of(config.baseDir()).resolve(config.container()).normalize();
    var file = container.resolve(key(name)).normalize();
    if (!file.startsWith(container)) {
      return;
    }
    try {
      for (var dir = file.getParent(); dir != null && dir.startsWith(container); ) {
        ownerOnly(dir);
        dir = dir.getParent();
      }
      if (Files.isRegularFile(file)) {
        Files.setPosixFilePermissions(
            file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      }
    } catch (IOException e) {
      throw new AuditException(AuditErrorCode.IO_FAILED, "cannot restrict " + name, e);
    }
  }

  private static void ownerOnly(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      Files.setPosixFilePermissions(
          dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    }
  }

  private void putBlob(Blob blob, long length) {
    var options = length > MULTIPART_ABOVE ? PutOptions.Builder.multipart() : PutOptions.NONE;
    call(() -> store.putBlob(config.container(), blob, options));
  }

  @Override
  public InputStream open(String name) {
    var blob = call(() -> store.getBlob(config.container(), key(name)));
    if (blob == null) {
      throw new AuditException(AuditErrorCode.BLOB_NOT_FOUND, "no blob " + name);
    }
    try {
      return blob.getPayload().openStream();
    } catch (IOException e) {
      throw new AuditException(AuditErrorCode.SINK_UNAVAILABLE, "cannot read blob " + name, e);
    }
  }

  @Override
  public boolean exists(String name) {
    return call(() -> store.blobExists(config.container(), key(name)));
  }

  @Override
  public List<String> list(String prefix) {
    var names = new ArrayList<String>();
    var options = ListContainerOptions.Builder.prefix(key(prefix)).recursive();
    String marker = null;
    do {
      var page = call(() -> store.list(config.container(), options));
      for (var metadata : page) {
        if (metadata.getType() == StorageType.BLOB) {
          names.add(unkey(metadata.getName()));
        }
      }
      marker = page.getNextMarker();
      if (marker != null) {
        options.afterMarker(marker);
      }
    } while (marker != null);
    names.sort(null);
    return names;
  }

  @Override
  public void close() {
    context.close();
  }

  @Override
  public String toString() {
    return "JcloudsBlobSink[" + config + "]";
  }

  private String key(String name) {
    return config.prefix().isEmpty() ? name : config.prefix() + "/" + name;
  }

  private String unkey(String key) {
    return config.prefix().isEmpty() ? key : key.substring(config.prefix().length() + 1);
  }

  private <T> T call(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (AuditException e) {
      throw e;
    } catch (RuntimeException e) {
      var status = deniedStatus(e);
      if (status != null) {
        throw new AuditException(
            AuditErrorCode.SINK_ACCESS_DENIED,
            "blob store "
                + config.provider()
                + " denied "
                + identity
                + " access to container "
                + config.container()
                + " ("
                + status
                + "): check the sink's credentials and their permissions",
            e);
      }
      // jclouds reports HTTP and container errors as assorted runtime exceptions; callers only
      // need to know that the store said no. jclouds' messages quote the request line as it was
      // before signing, so neither they nor this one carry a credential.
      throw new AuditException(
          AuditErrorCode.SINK_UNAVAILABLE, "blob store " + config.provider() + ": " + e, e);
    }
  }

  /**
   * What said no, if {@code e} (or a cause) is the store or its token endpoint turning the
   * credentials down; null otherwise.
   */
  private static String deniedStatus(Throwable e) {
    for (var cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof AuthorizationException) {
        return "authorization refused";
      }
      if (cause instanceof HttpResponseException http && http.getResponse() != null) {
        int code = http.getResponse().getStatusCode();
        if (code == 401 || code == 403) {
          return "HTTP " + code + " " + nullToEmpty(http.getResponse().getMessage());
        }
      }
    }
    return null;
  }

  private static String nullToEmpty(String text) {
    return text == null ? "" : text;
  }
}
