package io.trainyard.backend.vertex;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.JobServiceSettings;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

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
   * Builds the JobService client. Credentials are read here, so a block whose credentials cannot be
   * found fails at start with a message that names where they were looked for.
   */
  @Override
  public TrainingBackend create(VertexConfig config, BackendContext context) {
    return new VertexBackend(config, context, client(config));
  }

  static JobServiceClient client(VertexConfig config) {
    var channel = JobServiceSettings.defaultGrpcTransportProviderBuilder();
    if (config.plaintext()) {
      channel.setChannelConfigurator(b -> b.usePlaintext());
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
      var where =
          config.credentialsFile() != null
              ? "credentialsFile " + config.credentialsFile()
              : "Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata)";
      throw new IllegalArgumentException(
          "backend " + config.id() + ": no usable Google credentials from " + where + ": " + e, e);
    }
  }

  private static CredentialsProvider credentials(VertexConfig config) throws IOException {
    if (config.plaintext()) {
      return NoCredentialsProvider.create();
    }
    if (config.credentialsFile() != null) {
      try (InputStream in = Files.newInputStream(Path.of(config.credentialsFile()))) {
        return FixedCredentialsProvider.create(
            GoogleCredentials.fromStream(in)
                .createScoped(JobServiceSettings.getDefaultServiceScopes()));
      }
    }
    return JobServiceSettings.defaultCredentialsProviderBuilder().build();
  }
}
