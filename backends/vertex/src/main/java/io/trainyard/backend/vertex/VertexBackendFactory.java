package io.trainyard.backend.vertex;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.JobServiceSettings;
import com.google.cloud.logging.v2.LoggingClient;
import com.google.cloud.logging.v2.LoggingSettings;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Creates {@code type: vertex} backends; registered for {@link java.util.ServiceLoader}. */
public final class VertexBackendFactory implements BackendFactory<VertexConfig> {
  public static final String KIND = "vertex";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<VertexConfig> configClass() {
    return VertexConfig.class;
  }

  /**
   * Builds the JobService and Cloud Logging clients, with the same credentials. Credentials are
   * read here, so a block whose credentials cannot be found fails at start with a message that
   * names where they were looked for.
   */
  @Override
  public TrainingBackend create(VertexConfig config, BackendContext context) {
    var spans = new VertexCallSpans(context.openTelemetry(), config.id());
    var client = client(config, spans);
    try {
      return new VertexBackend(config, context, client, loggingClient(config, spans));
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  static JobServiceClient client(VertexConfig config) {
    return client(config, null);
  }

  private static JobServiceClient client(VertexConfig config, VertexCallSpans spans) {
    var channel = JobServiceSettings.defaultGrpcTransportProviderBuilder();
    if (config.plaintext()) {
      channel.setChannelConfigurator(b -> b.usePlaintext());
    }
    if (spans != null) {
      channel.setInterceptorProvider(() -> List.of(spans));
    }
    try {
      var settings =
          JobServiceSettings.newBuilder()
              .setEndpoint(config.effectiveEndpoint())
              .setTransportChannelProvider(channel.build())
              .setCredentialsProvider(credentials(config))
              .build();
      return JobServiceClient.create(settings);
    } catch (IOException e) {
      throw noCredentials(config, e);
    }
  }

  /**
   * Cloud Logging's client (global endpoint unless the block names one). entries.list is not
   * retried by the client: each try spends the project's small read quota, and a followed stream's
   * next poll is the retry.
   */
  static LoggingClient loggingClient(VertexConfig config, VertexCallSpans spans) {
    var channel = LoggingSettings.defaultGrpcTransportProviderBuilder();
    if (config.plaintext()) {
      channel.setChannelConfigurator(b -> b.usePlaintext());
    }
    if (spans != null) {
      channel.setInterceptorProvider(() -> List.of(spans));
    }
    try {
      var settings =
          LoggingSettings.newBuilder()
              .setEndpoint(config.effectiveLoggingEndpoint())
              .setTransportChannelProvider(channel.build())
              .setCredentialsProvider(credentials(config));
      var list = settings.listLogEntriesSettings();
      list.setRetryableCodes(Set.of())
          .setRetrySettings(list.getRetrySettings().toBuilder().setMaxAttempts(1).build());
      return LoggingClient.create(settings.build());
    } catch (IOException e) {
      throw noCredentials(config, e);
    }
  }

  private static IllegalArgumentException noCredentials(VertexConfig config, IOException e) {
    var where =
        config.credentialsFile() != null
            ? "credentialsFile " + config.credentialsFile()
            : "Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata)";
    return new IllegalArgumentException(
        "backend " + config.id() + ": no usable Google credentials from " + where + ": " + e, e);
  }

  private static CredentialsProvider credentials(VertexConfig config) throws IOException {
    if (config.plaintext()) {
      return NoCredentialsProvider.create();
    }
    if (config.credentialsFile() != null) {
      try (InputStream in = Files.newInputStream(Path.of(config.credentialsFile()))) {
        // cloud-platform, which covers Cloud Logging's reads as well
        return FixedCredentialsProvider.create(
            GoogleCredentials.fromStream(in)
                .createScoped(JobServiceSettings.getDefaultServiceScopes()));
      }
    }
    return JobServiceSettings.defaultCredentialsProviderBuilder().build();
  }
}
