package io.trainyard.backend.azureml;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.policy.BearerTokenAuthenticationPolicy;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;

/**
 * Creates {@code type: azureml} backends; registered for {@link java.util.ServiceLoader}. Every
 * HTTP call, the token requests included, goes through {@link JdkAzureHttpClient}, handed to the
 * pipelines and the credential builders explicitly so azure-core never looks for an HTTP client of
 * its own.
 */
public final class AzureMlBackendFactory implements BackendFactory<AzureMlConfig> {
  public static final String KIND = "azureml";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<AzureMlConfig> configClass() {
    return AzureMlConfig.class;
  }

  /** Builds the pipelines; nothing is called until the first request. */
  @Override
  public TrainingBackend create(AzureMlConfig config, BackendContext context) {
    return create(config, context, JdkAzureHttpClient.standard(config.requestTimeoutDuration()));
  }

  /** With an HTTP client of the caller's (tests trust their own certificate with it). */
  static AzureMlBackend create(AzureMlConfig config, BackendContext context, HttpClient http) {
    var credential = credential(config, http);
    var spans = new AzureMlCallSpans(context.openTelemetry(), config.id());
    var arm = new AzureMlArm(pipeline(http, credential, AzureMlArm.SCOPE, config, spans), config);
    var logs =
        new AzureMlBlobLogs(
            pipeline(http, credential, AzureMlBlobLogs.SCOPE, config, spans), config);
    return new AzureMlBackend(config, context, arm, logs);
  }

  /**
   * A service principal when the block names one; otherwise azure-identity's default chain
   * (environment, workload identity, managed identity, Azure CLI, ...), tried in its order at the
   * first token request.
   */
  static TokenCredential credential(AzureMlConfig config, HttpClient http) {
    if (config.explicitCredential()) {
      var builder =
          new ClientSecretCredentialBuilder()
              .tenantId(config.tenantId())
              .clientId(config.clientId())
              .clientSecret(config.clientSecret())
              .httpClient(http);
      if (config.authorityHost() != null) {
        // A host of our own (a sovereign cloud, a test's token endpoint) is not in MSAL's list of
        // known Entra hosts: skip instance discovery, which would ask login.microsoftonline.com.
        builder.authorityHost(config.authorityHost()).disableInstanceDiscovery();
      }
      return builder.build();
    }
    var builder = new DefaultAzureCredentialBuilder().httpClient(http);
    if (config.authorityHost() != null) {
      builder.authorityHost(config.authorityHost());
    }
    return builder.build();
  }

  static HttpPipeline pipeline(
      HttpClient http, TokenCredential credential, String scope, AzureMlConfig config) {
    return pipeline(http, credential, scope, config, null);
  }

  private static HttpPipeline pipeline(
      HttpClient http,
      TokenCredential credential,
      String scope,
      AzureMlConfig config,
      AzureMlCallSpans spans) {
    var retry =
        new RetryPolicy(
            new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(config.maxRetries())));
    var auth = new BearerTokenAuthenticationPolicy(credential, scope);
    var builder = new HttpPipelineBuilder().httpClient(http);
    // Ahead of the retry policy: one span per call, its retries inside.
    return (spans == null ? builder.policies(retry, auth) : builder.policies(spans, retry, auth))
        .build();
  }
}
