package io.trainyard.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.vertex.FakeJobService;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.OtlpReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tracing is off by default: a gateway without {@code tracing.otlp.endpoint} exports nothing, even
 * with the OpenTelemetry SDK's own autoconfiguration properties pointing at a live receiver (the
 * gateway never autoconfigures the SDK nor sets a global one), and a caller's {@code traceparent}
 * changes nothing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class TracingOffIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-tracing-off");
  private static final OtlpReceiver RECEIVER = new OtlpReceiver();
  private static final FakeJobService VERTEX = startVertex();

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
    System.clearProperty("otel.exporter.otlp.endpoint");
    System.clearProperty("otel.traces.exporter");
    RECEIVER.close();
    VERTEX.close();
  }

  @Test
  void aSubmissionExportsNothing() {
    var answer =
        client.post(
            "/v1/jobs",
            token,
            "application/yaml",
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: untraced}
            spec:
              framework: pytorch
              image: registry.example.com/train:1
              command: [python, train.py]
              resources: {cpus: 2, memory: 8Gi}
              replicas: {master: 1}
              placement: {backends: [vx], spot: never}
            """,
            "traceparent",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var id = answer.json().get("id").asText();
    client.awaitState(id, "SUBMITTED", token);
    assertThat(VERTEX.jobs()).isNotEmpty();
    // Spans would have been exported while the job went through quote, store and submit.
    assertThat(RECEIVER.exportHeaders()).isEmpty();
    assertThat(RECEIVER.spans()).isEmpty();
  }

  private static FakeJobService startVertex() {
    try {
      return new FakeJobService();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String writeConfig() {
    // What the SDK's autoconfiguration would read: the gateway must not.
    System.setProperty("otel.exporter.otlp.endpoint", RECEIVER.endpoint());
    System.setProperty("otel.traces.exporter", "otlp");
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        tracing: {serviceName: ty-off, otlp: {scheduleDelay: 100ms}}
        teams:
          ml: {backends: [vx]}
        backends:
          - type: vertex
            id: vx
            region: us-central1
            project: ml-prod
            baseOutputDirectory: gs://ml-out/trainyard
            endpoint: %s
            plaintext: true
        """
            .formatted(DIR, VERTEX.endpoint());
    try {
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
