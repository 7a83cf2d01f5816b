package io.trainyard.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * A real HTTP server on 127.0.0.1 that answers like the gateway: canned answers per method and
 * path, and a record of every request it received.
 */
final class FakeGateway implements AutoCloseable {
  /** A request as the server saw it; header names in lower case. */
  record Request(
      String method, String path, String query, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** Writes a whole answer for one exchange. */
  interface Responder {
    void respond(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Map<String, Deque<Responder>> routes = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  FakeGateway() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::dispatch);
    server.setExecutor(executor);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers {@code method path} with this status and JSON body, every time. */
  FakeGateway answer(String method, String path, int status, String json) {
    return on(method, path, exchange -> send(exchange, status, "application/json", json));
  }

  /** Adds a responder; several for the same route answer in turn, the last one repeatedly. */
  FakeGateway on(String method, String path, Responder responder) {
    routes.computeIfAbsent(method + " " + path, k -> new ArrayDeque<>()).add(responder);
    return this;
  }

  List<Request> requests() {
    return requests;
  }

  Request lastRequest() {
    return requests.get(requests.size() - 1);
  }

  static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (var out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    var uri = exchange.getRequestURI();
    Map<String, String> headers =
        exchange.getRequestHeaders().entrySet().stream()
            .collect(
                Collectors.toMap(
                    e -> e.getKey().toLowerCase(Locale.ROOT), e -> String.join(",", e.getValue())));
    byte[] body = exchange.getRequestBody().readAllBytes();
    requests.add(
        new Request(exchange.getRequestMethod(), uri.getPath(), uri.getRawQuery(), headers, body));
    Deque<Responder> responders = routes.get(exchange.getRequestMethod() + " " + uri.getPath());
    if (responders == null) {
      send(
          exchange,
          404,
          "application/json",
          "{\"code\":\"NOT_FOUND\",\"message\":\"no such route\"}");
      return;
    }
    Responder responder;
    synchronized (responders) {
      responder = responders.size() > 1 ? responders.poll() : responders.peek();
    }
    responder.respond(exchange);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
