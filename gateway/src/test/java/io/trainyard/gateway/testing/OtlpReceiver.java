package io.trainyard.gateway.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1: a JDK {@link HttpServer} answering {@code POST
 * /v1/traces} with protobuf, decoding each {@code ExportTraceServiceRequest} with the project's own
 * proto classes (opentelemetry-proto), so the gateway's real exporter is what is tested.
 */
public final class OtlpReceiver implements AutoCloseable {
  /** One received span, ids in hex, attributes as strings. */
  public record ReceivedSpan(
      String name,
      String traceId,
      String spanId,
      String parentSpanId,
      String kind,
      String serviceName,
      Map<String, String> attributes,
      List<String> linkedTraceIds) {
    public String attribute(String key) {
      return attributes.get(key);
    }

    @Override
    public String toString() {
      return name + " [" + spanId + " <- " + parentSpanId + "] " + attributes;
    }
  }

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final List<Map<String, String>> exportHeaders = new CopyOnWriteArrayList<>();

  public OtlpReceiver() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/v1/traces",
        exchange -> {
          try (exchange) {
            var headers = new LinkedHashMap<String, String>();
            exchange
                .getRequestHeaders()
                .forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.get(0)));
            exportHeaders.add(headers);
            try {
              record(ExportTraceServiceRequest.parseFrom(exchange.getRequestBody()));
            } catch (IOException | RuntimeException | LinkageError e) {
              // Said in the test's output: a silent receiver would only show as missing spans.
              System.err.println("OtlpReceiver: cannot decode an export: " + e);
              exchange.sendResponseHeaders(400, -1);
              return;
            }
            var answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
          }
        });
    server.start();
  }

  private void record(ExportTraceServiceRequest request) {
    var hex = HexFormat.of();
    for (var resource : request.getResourceSpansList()) {
      String service = null;
      for (var attribute : resource.getResource().getAttributesList()) {
        if (attribute.getKey().equals("service.name")) {
          service = text(attribute.getValue());
        }
      }
      for (var scope : resource.getScopeSpansList()) {
        for (var span : scope.getSpansList()) {
          var attributes = new LinkedHashMap<String, String>();
          span.getAttributesList().forEach(a -> attributes.put(a.getKey(), text(a.getValue())));
          var links = new ArrayList<String>();
          span.getLinksList().forEach(l -> links.add(hex.formatHex(l.getTraceId().toByteArray())));
          spans.add(
              new ReceivedSpan(
                  span.getName(),
                  hex.formatHex(span.getTraceId().toByteArray()),
                  hex.formatHex(span.getSpanId().toByteArray()),
                  hex.formatHex(span.getParentSpanId().toByteArray()),
                  span.getKind().name(),
                  service,
                  attributes,
                  links));
        }
      }
    }
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case INT_VALUE -> Long.toString(value.getIntValue());
      case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
      case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
      default -> value.toString();
    };
  }

  /** The base URL to configure as {@code tracing.otlp.endpoint}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** The headers of every export request received. */
  public List<Map<String, String>> exportHeaders() {
    return List.copyOf(exportHeaders);
  }

  /**
   * The spans received so far, once {@code done} holds for them; polls until {@code within} passes.
   */
  public List<ReceivedSpan> await(Predicate<List<ReceivedSpan>> done, Duration within) {
    var deadline = Instant.now().plus(within);
    while (true) {
      var now = spans();
      if (done.test(now)) {
        return now;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("spans not received within " + within + "; got:\n" + now);
      }
      try {
        Thread.sleep(50); // polling the receiver with a deadline, not waiting for a fixed time
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
