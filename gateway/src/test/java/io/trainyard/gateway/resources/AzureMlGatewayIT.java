package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.azureml.AzureMlFake;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Azure ML as a plugin: the gateway knows nothing of it but a {@code type: azureml} block, yet
 * quotes it from the module's own price rows (no surcharge, and the offer says so) and runs a job
 * on it — the real azure-identity login and azure-core pipelines against the wire-level fake of
 * Entra ID, ARM and Blob storage.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AzureMlGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-azureml");
  private static final SSLContext JVM_DEFAULT = jvmDefault();
  private static final AzureMlFake AZURE = start();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  private static GatewayClient client;
  private static String token;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    token =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("mia", Set.of("ml"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    AZURE.close();
    SSLContext.setDefault(JVM_DEFAULT);
  }

  @Test
  void aQuoteShowsAzureMlAtTheVmPriceWithNoSurchargeAndTheJobRunsThere() {
    var quote = client.post("/v1/quotes", token, "application/yaml", JOB);
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    var onDemand = offer(quote.json(), "aml", false);
    // Standard_D8s_v5 in eastus from the module's rows, Azure ML adding nothing on top.
    assertThat(onDemand.get("kind").asText()).isEqualTo("azureml");
    assertThat(onDemand.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.384");
    assertThat(onDemand.get("estimated").asBoolean()).isFalse();
    assertThat(onDemand.get("notes").toString())
        .contains("Standard_D8s_v5")
        .contains("azureml adds no surcharge to compute");
    // Low priority is priced at the VM's spot price, which is a stand-in: estimated, and cheapest.
    var lowPriority = offer(quote.json(), "aml", true);
    assertThat(lowPriority.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.0422");
    assertThat(lowPriority.get("estimated").asBoolean()).isTrue();
    assertThat(lowPriority.get("chosen").asBoolean()).isTrue();

    var submitted = client.post("/v1/jobs", token, "application/yaml", JOB);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();
    var name = client.awaitState(id, "SUBMITTED", token).get("objectName").asText();
    assertThat(AZURE.jobBody(name))
        .containsEntry("jobType", "Command")
        .containsEntry("command", "python train.py")
        .containsEntry("queueSettings", java.util.Map.of("jobTier", "Spot"));
    AZURE.move(name, "Running");
    client.awaitState(id, "RUNNING", token);
    AZURE.appendLog(name, "std_log.txt", "epoch 1 loss 0.41\n");
    AZURE.move(name, "Completed");
    client.awaitState(id, "SUCCEEDED", token);
    assertThat(client.get("/v1/jobs/" + id + "/logs", token).body()).contains("epoch 1 loss 0.41");
  }

  private static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: churn-aml}
      spec:
        framework: pytorch
        image: registry.example.com/churn:3
        command: [python, train.py]
        resources: {cpus: 6, memory: 24Gi}
        replicas: {master: 1}
      """;

  private static JsonNode offer(JsonNode decision, String backend, boolean spot) {
    for (var candidate : decision.get("candidates")) {
      if (candidate.get("backendId").asText().equals(backend)
          && candidate.get("spot").asBoolean() == spot
          && !candidate.has("rejected")) {
        return candidate;
      }
    }
    throw new AssertionError("no offer of " + backend + " in " + decision);
  }

  private static SSLContext jvmDefault() {
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The fake, trusted the way a deployment trusts Azure: through the JVM's default TLS context,
   * which the backend's factory uses (restored after the class).
   */
  private static AzureMlFake start() {
    try {
      var fake = new AzureMlFake();
      SSLContext.setDefault(AzureMlFake.clientTls());
      return fake;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String writeConfig() {
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          ml: {backends: [aml]}
        backends:
          - type: azureml
            id: aml
            region: eastus
            logPollInterval: 100ms
        %s
        """
            .formatted(DIR, AZURE.configYaml().indent(4).stripTrailing());
    try {
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
