package io.trainyard.bench.load;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A loopback stand-in for SageMaker's JSON API, so a scenario's {@code sagemaker} backend blocks
 * pass their start-up health probe ({@code ListTrainingJobs}) without a network: every call is
 * answered 200 with an empty job list (and a training-job ARN, for a {@code CreateTrainingJob}).
 * Quotes never call it: a SageMaker backend proposes placements from the embedded catalog alone.
 */
final class StubSageMaker implements AutoCloseable {
  private static final byte[] ANSWER =
      ("{\"TrainingJobSummaries\":[],"
              + "\"TrainingJobArn\":\"arn:aws:sagemaker:us-east-1:123456789012:training-job/bench\"}")
          .getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;

  private StubSageMaker(HttpServer server) {
    this.server = server;
  }

  static StubSageMaker start() {
    try {
      var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            try (exchange) {
              exchange.getRequestBody().readAllBytes();
              exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
              exchange.sendResponseHeaders(200, ANSWER.length);
              exchange.getResponseBody().write(ANSWER);
            }
          });
      server.setExecutor(Executors.newSingleThreadExecutor());
      server.start();
      return new StubSageMaker(server);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
