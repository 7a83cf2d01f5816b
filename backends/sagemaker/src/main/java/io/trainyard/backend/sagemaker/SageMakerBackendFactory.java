package io.trainyard.backend.sagemaker;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;

/** Creates {@code type: sagemaker} backends; registered for {@link java.util.ServiceLoader}. */
public final class SageMakerBackendFactory implements BackendFactory<SageMakerConfig> {
  public static final String KIND = "sagemaker";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<SageMakerConfig> configClass() {
    return SageMakerConfig.class;
  }

  /** Builds the SDK clients; nothing is called until the first request. */
  @Override
  public TrainingBackend create(SageMakerConfig config, BackendContext context) {
    var spans = new SageMakerCallSpans(context.openTelemetry(), config.id());
    return new SageMakerBackend(
        config, context, sageMakerClient(config, spans), logsClient(config, spans));
  }

  static SageMakerClient sageMakerClient(SageMakerConfig config) {
    return sageMakerClient(config, null);
  }

  static CloudWatchLogsClient logsClient(SageMakerConfig config) {
    return logsClient(config, null);
  }

  private static SageMakerClient sageMakerClient(SageMakerConfig config, SageMakerCallSpans spans) {
    var builder = SageMakerClient.builder().httpClientBuilder(ApacheHttpClient.builder());
    return configure(builder, config, spans).build();
  }

  private static CloudWatchLogsClient logsClient(SageMakerConfig config, SageMakerCallSpans spans) {
    var builder = CloudWatchLogsClient.builder().httpClientBuilder(ApacheHttpClient.builder());
    return configure(builder, config, spans).build();
  }

  private static <B extends AwsClientBuilder<B, ?>> B configure(
      B builder, SageMakerConfig config, SageMakerCallSpans spans) {
    builder
        .region(Region.of(config.region()))
        .credentialsProvider(credentials(config))
        // Few attempts: the reconciler retries a Retryable later rather than blocking its thread.
        .overrideConfiguration(
            o -> {
              o.retryStrategy(b -> b.maxAttempts(config.maxAttempts()));
              if (spans != null) {
                o.addExecutionInterceptor(spans);
              }
            });
    config.endpointUri().ifPresent(builder::endpointOverride);
    return builder;
  }

  private static AwsCredentialsProvider credentials(SageMakerConfig config) {
    if (config.accessKeyId() != null) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(config.accessKeyId(), config.secretAccessKey()));
    }
    return DefaultCredentialsProvider.builder().build();
  }
}
