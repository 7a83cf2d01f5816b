package io.trainyard.backend.azureml;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * Azure on 127.0.0.1 over TLS, speaking the wire protocols the backend uses, for tests: the Entra
 * ID token endpoint ({@code POST /{tenant}/oauth2/v2.0/token}, client credentials, as MSAL calls
 * it), the ARM endpoints of one Azure ML workspace (workspace GET, environment versions, jobs,
 * cancel) checking {@code api-version} and the bearer token of every call, and Blob storage under
 * {@code /blob} (List Blobs, ranged Get Blob) for job logs.
 *
 * <p>Tests drive it as Azure would: {@link #move} a job's status, {@link #appendLog} to its logs,
 * {@link #deleteJob} out of band, {@link #putJob} as another gateway, {@link #failNext} with an ARM
 * error. It keeps every request so tests assert on the bodies the client sent. Public so other
 * modules (the backend contract test kit) can run against it.
 */
public final class AzureMlFake implements AutoCloseable {
  public static final String TENANT = "00000000-0000-0000-0000-0000000000aa";
  public static final String CLIENT_ID = "trainyard-test";
  public static final String CLIENT_SECRET = "fake-client-secret-value";
  public static final String SUBSCRIPTION = "00000000-0000-0000-0000-000000000001";
  public static final String RESOURCE_GROUP = "ml-test";
  public static final String WORKSPACE = "trainyard-ws";
  public static final String CONTAINER = "azureml";

  // Literals, not the client's constants: a client that drifts from Azure's values must fail here.
  static final String API_VERSION = "2024-04-01";
  static final String ARM_SCOPE = "https://management.azure.com/.default";
  static final String STORAGE_SCOPE = "https://storage.azure.com/.default";

  private static final Pattern WORKSPACE_PATH =
      Pattern.compile(
          "/subscriptions/"
              + SUBSCRIPTION
              + "/resourceGroups/"
              + RESOURCE_GROUP
              + "/providers/Microsoft.MachineLearningServices/workspaces/"
              + WORKSPACE
              + "(/.*)?");

  private final HttpsServer server;
  private final Map<String, String> tokens = new ConcurrentHashMap<>(); // token -> scope
  private final Map<String, Map<String, Object>> environments = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Object>> jobs = new ConcurrentHashMap<>();
  private final Map<String, ByteArrayOutputStream> blobs = new ConcurrentHashMap<>();
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  /**
   * One request the fake received.
   *
   * @param body the JSON body as maps and lists; empty for none or a form
   * @param form the decoded form fields of a token request; empty otherwise
   */
  public record Call(
      String method, String path, Map<String, Object> body, Map<String, String> form) {}

  private record Fault(String method, String pathPart, int status, String code, String message) {}

  public AzureMlFake() throws IOException {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(FakeTls.server()));
    server.createContext("/", this::handle);
    server.start();
  }

  /** {@code https://127.0.0.1:<port>}: ARM endpoint and authority host both. */
  public String endpoint() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The Blob endpoint of the workspace's storage account. */
  public String storageEndpoint() {
    return endpoint() + "/blob";
  }

  /**
   * A TLS context that trusts the fake's certificate only: for a test that builds the backend the
   * way the gateway does (through its factory, on the JVM's default context), to set as the default
   * for as long as it runs.
   */
  public static javax.net.ssl.SSLContext clientTls() {
    return FakeTls.client();
  }

  /** An azure-core HTTP client that trusts the fake's certificate. */
  static JdkAzureHttpClient httpClient() {
    return new JdkAzureHttpClient(
        java.net.http.HttpClient.newBuilder().sslContext(FakeTls.client()).build(),
        Duration.ofSeconds(10));
  }

  /** The backend block's connection fields for this fake (service principal, endpoints). */
  public String configYaml() {
    return """
        subscriptionId: %s
        resourceGroup: %s
        workspace: %s
        armEndpoint: %s
        authorityHost: %s
        storageEndpoint: %s
        tenantId: %s
        clientId: %s
        clientSecret: %s
        maxRetries: 0
        """
        .formatted(
            SUBSCRIPTION,
            RESOURCE_GROUP,
            WORKSPACE,
            endpoint(),
            endpoint(),
            storageEndpoint(),
            TENANT,
            CLIENT_ID,
            CLIENT_SECRET);
  }

  // ---- what tests do to it, as Azure would ----

  /** The next request of {@code method} whose path contains {@code pathPart} fails so. */
  public void failNext(String method, String pathPart, int status, String code, String message) {
    faults
        .computeIfAbsent(method, k -> new ArrayDeque<>())
        .add(new Fault(method, pathPart, status, code, message));
  }

  private volatile boolean cancelsOnTheirOwn;

  /** From now on a cancelled job reaches {@code Canceled} at once, as it would in a while. */
  public void cancelOnTheirOwn() {
    cancelsOnTheirOwn = true;
  }

  /** Moves a job's {@code properties.status} on, as Azure ML would. */
  public void move(String name, String status) {
    var job = jobs.get(name);
    if (job == null) {
      throw new IllegalArgumentException("no job " + name);
    }
    properties(job).put("status", status);
    systemData(job).put("lastModifiedAt", Instant.now().toString());
  }

  /** Removes a job behind the backend's back. */
  public void deleteJob(String name) {
    jobs.remove(name);
  }

  /** Puts a job there as if another gateway had created it. */
  public void putJob(String name, Map<String, String> tags) {
    var properties = new LinkedHashMap<String, Object>();
    properties.put("jobType", "Command");
    properties.put("tags", new LinkedHashMap<String, Object>(tags));
    properties.put("status", "Running");
    jobs.put(name, resource(name, "jobs", properties));
  }

  /** Appends to one of a job's log files, e.g. {@code std_log.txt}. */
  public void appendLog(String jobName, String file, String text) {
    // Where Azure ML writes a command job's output logs in the artifact container.
    var blob = "ExperimentRun/dcid." + jobName + "/user_logs/" + file;
    var out = blobs.computeIfAbsent(blob, b -> new ByteArrayOutputStream());
    synchronized (out) {
      out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  public boolean hasJob(String name) {
    return jobs.containsKey(name);
  }

  public String status(String name) {
    return (String) properties(jobs.get(name)).get("status");
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** Requests of {@code method} whose path contains {@code pathPart}. */
  public List<Call> calls(String method, String pathPart) {
    return calls.stream()
        .filter(c -> c.method().equals(method) && c.path().contains(pathPart))
        .toList();
  }

  /** The body the client PUT for a job. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> jobBody(String name) {
    return calls("PUT", "/jobs/" + name).stream()
        .reduce((a, b) -> b)
        .map(c -> (Map<String, Object>) c.body().get("properties"))
        .orElseThrow(() -> new IllegalArgumentException("no PUT of job " + name));
  }

  // ---- the wire ----

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var method = exchange.getRequestMethod();
      var path = exchange.getRequestURI().getRawPath();
      var query = query(exchange.getRequestURI().getRawQuery());
      var bytes = exchange.getRequestBody().readAllBytes();
      var form =
          path.endsWith("/oauth2/v2.0/token")
              ? query(new String(bytes, StandardCharsets.UTF_8))
              : Map.<String, String>of();
      Map<String, Object> body =
          form.isEmpty() && bytes.length > 0 && !path.startsWith("/blob/")
              ? AzureJson.readObject(bytes)
              : Map.of();
      calls.add(new Call(method, URLDecoder.decode(path, StandardCharsets.UTF_8), body, form));
      var fault = nextFault(method, path);
      if (fault != null) {
        armError(exchange, fault.status(), fault.code(), fault.message());
        return;
      }
      if (path.startsWith("/" + TENANT + "/")) {
        identity(exchange, path, form);
      } else if (path.startsWith("/blob/")) {
        blob(exchange, path.substring("/blob".length()), query);
      } else {
        arm(exchange, method, path, query, body);
      }
    } catch (RuntimeException e) {
      armError(exchange, 500, "InternalServerError", "fake: " + e);
    }
  }

  private Fault nextFault(String method, String path) {
    var queue = faults.get(method);
    if (queue == null) {
      return null;
    }
    synchronized (queue) {
      for (var it = queue.iterator(); it.hasNext(); ) {
        var f = it.next();
        if (path.contains(f.pathPart())) {
          it.remove();
          return f;
        }
      }
    }
    return null;
  }

  // Entra ID: OpenID metadata (MSAL may ask) and the client-credentials token endpoint.
  private void identity(HttpExchange exchange, String path, Map<String, String> form)
      throws IOException {
    var authority = endpoint() + "/" + TENANT;
    if (path.endsWith("/.well-known/openid-configuration")) {
      var metadata = new LinkedHashMap<String, Object>();
      metadata.put("token_endpoint", authority + "/oauth2/v2.0/token");
      metadata.put("authorization_endpoint", authority + "/oauth2/v2.0/authorize");
      metadata.put("issuer", authority + "/v2.0");
      json(exchange, 200, metadata);
      return;
    }
    if (!path.endsWith("/oauth2/v2.0/token")) {
      json(exchange, 404, Map.of("error", "not_found"));
      return;
    }
    if (!"client_credentials".equals(form.get("grant_type"))
        || !CLIENT_ID.equals(form.get("client_id"))
        || !CLIENT_SECRET.equals(form.get("client_secret"))) {
      json(
          exchange,
          401,
          Map.of(
              "error",
              "invalid_client",
              "error_description",
              "AADSTS7000215: Invalid client secret provided."));
      return;
    }
    var scope = form.getOrDefault("scope", "");
    var token = "fake-token-" + UUID.randomUUID();
    tokens.put(token, scope);
    var answer = new LinkedHashMap<String, Object>();
    answer.put("token_type", "Bearer");
    answer.put("expires_in", 3599);
    answer.put("ext_expires_in", 3599);
    answer.put("access_token", token);
    json(exchange, 200, answer);
  }

  /** The scope of the request's bearer token, or null when it has none we issued. */
  private String scopeOf(HttpExchange exchange) {
    var auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null || !auth.startsWith("Bearer ")) {
      return null;
    }
    return tokens.get(auth.substring("Bearer ".length()));
  }

  private void arm(
      HttpExchange exchange,
      String method,
      String path,
      Map<String, String> query,
      Map<String, Object> body)
      throws IOException {
    var scope = scopeOf(exchange);
    if (scope == null || !scope.contains(ARM_SCOPE)) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer authorization_uri=\"x\"");
      armError(
          exchange,
          401,
          "InvalidAuthenticationToken",
          "The access token is invalid or not for " + ARM_SCOPE);
      return;
    }
    if (!API_VERSION.equals(query.get("api-version"))) {
      armError(
          exchange,
          400,
          "InvalidApiVersionParameter",
          "The api-version '" + query.get("api-version") + "' is invalid.");
      return;
    }
    var m = WORKSPACE_PATH.matcher(URLDecoder.decode(path, StandardCharsets.UTF_8));
    if (!m.matches()) {
      armError(exchange, 404, "ResourceNotFound", "no such resource " + path);
      return;
    }
    var rest = m.group(1) == null ? "" : m.group(1);
    var parts = rest.isEmpty() ? new String[0] : rest.substring(1).split("/");
    if (parts.length == 0 && method.equals("GET")) {
      json(exchange, 200, Map.of("name", WORKSPACE, "location", "eastus"));
    } else if (parts.length == 4
        && parts[0].equals("environments")
        && parts[2].equals("versions")) {
      environment(exchange, method, parts[1] + ":" + parts[3], body);
    } else if (parts.length == 2 && parts[0].equals("jobs")) {
      job(exchange, method, parts[1], body);
    } else if (parts.length == 3
        && parts[0].equals("jobs")
        && parts[2].equals("cancel")
        && method.equals("POST")) {
      cancel(exchange, parts[1]);
    } else {
      armError(exchange, 404, "ResourceNotFound", "no route " + method + " " + rest);
    }
  }

  private void environment(
      HttpExchange exchange, String method, String id, Map<String, Object> body)
      throws IOException {
    switch (method) {
      case "GET" -> {
        var env = environments.get(id);
        if (env == null) {
          armError(exchange, 404, "UserError", "Not found: environment " + id);
        } else {
          json(exchange, 200, env);
        }
      }
      case "PUT" -> {
        var properties = AzureJson.object(body, "properties");
        if (AzureJson.string(properties, "image") == null) {
          armError(exchange, 400, "UserError", "An environment needs an image or a build");
          return;
        }
        var existed = environments.containsKey(id);
        environments.put(id, resource(id, "environments", new LinkedHashMap<>(properties)));
        json(exchange, existed ? 200 : 201, environments.get(id));
      }
      default -> armError(exchange, 405, "MethodNotAllowed", method);
    }
  }

  private void job(HttpExchange exchange, String method, String name, Map<String, Object> body)
      throws IOException {
    switch (method) {
      case "GET" -> {
        var job = jobs.get(name);
        if (job == null) {
          armError(exchange, 404, "UserError", "Not found: job " + name);
        } else {
          json(exchange, 200, job);
        }
      }
      case "PUT" -> {
        var properties = new LinkedHashMap<String, Object>(AzureJson.object(body, "properties"));
        var environmentId = AzureJson.string(properties, "environmentId");
        var envKey =
            environmentId == null
                ? null
                : environmentId.replaceFirst(".*/environments/([^/]+)/versions/([^/]+)$", "$1:$2");
        if (!"Command".equals(properties.get("jobType")) || properties.get("command") == null) {
          armError(exchange, 400, "UserError", "A command job needs jobType Command and a command");
          return;
        }
        if (envKey == null || !environments.containsKey(envKey)) {
          armError(exchange, 400, "UserError", "Environment " + environmentId + " not found");
          return;
        }
        var existed = jobs.containsKey(name);
        properties.put("status", "NotStarted");
        jobs.put(name, resource(name, "jobs", properties));
        json(exchange, existed ? 200 : 201, jobs.get(name));
      }
      default -> armError(exchange, 405, "MethodNotAllowed", method);
    }
  }

  private void cancel(HttpExchange exchange, String name) throws IOException {
    var job = jobs.get(name);
    if (job == null) {
      armError(exchange, 404, "UserError", "Not found: job " + name);
      return;
    }
    var status = (String) properties(job).get("status");
    if (List.of("Completed", "Failed", "Canceled").contains(status)) {
      armError(
          exchange, 400, "UserError", "Cannot cancel job " + name + " in status " + status + ".");
      return;
    }
    // Azure ML stops the job's nodes, then says Canceled; tests that watch the stop step it.
    move(name, cancelsOnTheirOwn ? "Canceled" : "CancelRequested");
    exchange.getResponseHeaders().set("Location", endpoint() + "/operationResults/cancel-" + name);
    exchange.sendResponseHeaders(202, -1);
  }

  private void blob(HttpExchange exchange, String path, Map<String, String> query)
      throws IOException {
    var scope = scopeOf(exchange);
    if (scope == null || !scope.contains(STORAGE_SCOPE)) {
      blobError(exchange, 403, "AuthenticationFailed");
      return;
    }
    if (exchange.getRequestHeaders().getFirst("x-ms-version") == null) {
      blobError(exchange, 400, "MissingRequiredHeader");
      return;
    }
    var decoded = URLDecoder.decode(path, StandardCharsets.UTF_8);
    if (decoded.equals("/" + CONTAINER) && "list".equals(query.get("comp"))) {
      list(exchange, query.getOrDefault("prefix", ""));
      return;
    }
    if (!decoded.startsWith("/" + CONTAINER + "/")) {
      blobError(exchange, 404, "ContainerNotFound");
      return;
    }
    var out = blobs.get(decoded.substring(CONTAINER.length() + 2));
    if (out == null) {
      blobError(exchange, 404, "BlobNotFound");
      return;
    }
    byte[] content;
    synchronized (out) {
      content = out.toByteArray();
    }
    var range = exchange.getRequestHeaders().getFirst("x-ms-range");
    var from = range == null ? 0 : Integer.parseInt(range.replaceFirst("bytes=(\\d+)-.*", "$1"));
    if (range != null && from >= content.length) {
      blobError(exchange, 416, "InvalidRange");
      return;
    }
    var part = java.util.Arrays.copyOfRange(content, from, content.length);
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    exchange.sendResponseHeaders(range == null ? 200 : 206, part.length);
    exchange.getResponseBody().write(part);
  }

  private void list(HttpExchange exchange, String prefix) throws IOException {
    var xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>");
    xml.append("<EnumerationResults ContainerName=\"").append(CONTAINER).append("\"><Blobs>");
    blobs.keySet().stream()
        .filter(n -> n.startsWith(prefix))
        .sorted()
        .forEach(
            n -> {
              int size;
              var out = blobs.get(n);
              synchronized (out) {
                size = out.size();
              }
              xml.append("<Blob><Name>")
                  .append(n)
                  .append("</Name><Properties><Content-Length>")
                  .append(size)
                  .append("</Content-Length></Properties></Blob>");
            });
    xml.append("</Blobs><NextMarker /></EnumerationResults>");
    var bytes = xml.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private Map<String, Object> resource(String name, String type, Map<String, Object> properties) {
    var resource = new LinkedHashMap<String, Object>();
    resource.put("id", "/subscriptions/" + SUBSCRIPTION + "/" + type + "/" + name);
    resource.put("name", name);
    resource.put("type", "Microsoft.MachineLearningServices/workspaces/" + type);
    resource.put("properties", properties);
    var systemData = new LinkedHashMap<String, Object>();
    systemData.put("createdAt", Instant.now().toString());
    systemData.put("lastModifiedAt", Instant.now().toString());
    resource.put("systemData", systemData);
    return resource;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Map<String, Object> resource) {
    return (Map<String, Object>) resource.get("properties");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> systemData(Map<String, Object> resource) {
    return (Map<String, Object>) resource.get("systemData");
  }

  private static Map<String, String> query(String raw) {
    var map = new LinkedHashMap<String, String>();
    if (raw == null || raw.isEmpty()) {
      return map;
    }
    for (var pair : raw.split("&")) {
      var eq = pair.indexOf('=');
      var key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      var value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      map.put(key, value);
    }
    return map;
  }

  private static void armError(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    json(exchange, status, Map.of("error", Map.of("code", code, "message", message)));
  }

  private static void blobError(HttpExchange exchange, int status, String code) throws IOException {
    exchange.getResponseHeaders().set("x-ms-error-code", code);
    var xml =
        ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code></Error>")
            .getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, xml.length);
    exchange.getResponseBody().write(xml);
  }

  private static void json(HttpExchange exchange, int status, Map<String, Object> body)
      throws IOException {
    var bytes = AzureJson.write(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.getResponseHeaders().set("x-ms-request-id", UUID.randomUUID().toString());
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
