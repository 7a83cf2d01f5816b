package io.trainyard.backend.gke;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The GKE API's {@code projects.locations.clusters.get} on 127.0.0.1 (plain http, which a block's
 * {@code containerEndpoint} may name only on a loopback address): {@code GET
 * /v1/projects/{project}/locations/{location}/clusters/{cluster}} answers the {@code Cluster} set
 * for that name, shaped like the real API's (name, location, status, endpoint,
 * masterAuth.clusterCaCertificate, ...), or Google's error body ({@code {"error": {code, message,
 * status}}}): 401 UNAUTHENTICATED unless the request carries {@code Authorization: Bearer <token>},
 * 404 NOT_FOUND for a cluster it does not know, or what {@link #answer} set.
 */
final class FakeGkeApi implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Answer(int status, byte[] body) {}

  private final HttpServer server;
  private final Predicate<String> issued;
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<String> requests = Collections.synchronizedList(new ArrayList<>());

  /**
   * @param issued whether Google issued this access token: only those are accepted
   */
  FakeGkeApi(Predicate<String> issued) {
    this.issued = issued;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.start();
  }

  /** What a block's {@code containerEndpoint} names. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  static String name(String project, String location, String cluster) {
    return "projects/" + project + "/locations/" + location + "/clusters/" + cluster;
  }

  /** A cluster, answered as {@code clusters.get} answers it. */
  void cluster(
      String project,
      String location,
      String cluster,
      String status,
      String endpoint,
      String caCertificateBase64) {
    var body = new LinkedHashMap<String, Object>();
    body.put("name", cluster);
    body.put("location", location);
    body.put("zone", location);
    body.put("status", status);
    if (endpoint != null) {
      body.put("endpoint", endpoint);
    }
    body.put("currentMasterVersion", "1.30.5-gke.1014001");
    if (caCertificateBase64 != null) {
      body.put("masterAuth", Map.of("clusterCaCertificate", caCertificateBase64));
    }
    body.put("selfLink", "https://container.googleapis.com/v1/" + name(project, location, cluster));
    if (status.equals("PROVISIONING")) {
      body.put("statusMessage", "Cluster is being created.");
    }
    put(name(project, location, cluster), 200, body);
  }

  /** Google's error answer for that cluster. */
  void answer(String name, int code, String status, String message) {
    put(name, code, Map.of("error", Map.of("code", code, "message", message, "status", status)));
  }

  /** {@code METHOD path Authorization} of every request so far. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void put(String name, int status, Object body) {
    try {
      answers.put("/v1/" + name, new Answer(status, JSON.writeValueAsBytes(body)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var path = exchange.getRequestURI().getRawPath();
      var authorization = exchange.getRequestHeaders().getFirst("Authorization");
      requests.add(exchange.getRequestMethod() + " " + path + " " + authorization);
      Answer answer;
      if (authorization == null
          || !authorization.startsWith("Bearer ")
          || !issued.test(authorization.substring("Bearer ".length()))) {
        answer =
            error(
                401,
                "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token.");
      } else if (!exchange.getRequestMethod().equals("GET")) {
        answer = error(405, "METHOD_NOT_ALLOWED", "only GET");
      } else {
        answer =
            answers.getOrDefault(
                path,
                error(404, "NOT_FOUND", "Not found: " + path.substring("/v1/".length()) + "."));
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
      exchange.sendResponseHeaders(answer.status(), answer.body().length);
      exchange.getResponseBody().write(answer.body());
    }
  }

  private static Answer error(int code, String status, String message) {
    try {
      return new Answer(
          code,
          JSON.writeValueAsString(
                  Map.of("error", Map.of("code", code, "message", message, "status", status)))
              .getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
