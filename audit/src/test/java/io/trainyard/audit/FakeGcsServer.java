package io.trainyard.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Google Cloud Storage's JSON API and Google's OAuth 2.0 token endpoint, on 127.0.0.1, in memory:
 * the subset jclouds' {@code google-cloud-storage} provider (2.7.0) calls for a blob store. Paths
 * and fields are Google's, from the JSON API reference (cloud.google.com/storage/docs/json_api/v1):
 *
 * <ul>
 *   <li>{@code GET /storage/v1/b/BUCKET} (buckets/get): the bucket resource, {@code kind, id, name,
 *       projectNumber, timeCreated, updated, metageneration, location, storageClass, etag}
 *   <li>{@code POST /storage/v1/b?project=P} (buckets/insert): body {@code {name}}; 409 {@code
 *       conflict} if it exists
 *   <li>{@code POST /upload/storage/v1/b/BUCKET/o?uploadType=multipart} (objects/insert): a
 *       two-part body, the object's metadata as JSON ({@code name, contentType, ...}) and then its
 *       data; {@code uploadType=media} takes the data alone with {@code name} in the query. An
 *       insert replaces an object of the same name with a new {@code generation}. Google documents
 *       {@code multipart/related}; jclouds 2.7.0 sends {@code multipart/form-data} (its
 *       MultipartUploadBinder sets the related type on a copy of the request that it drops), which
 *       Google's servers evidently take, so the stub takes any {@code multipart/*} with a boundary
 *   <li>{@code GET /storage/v1/b/BUCKET/o/OBJECT} (objects/get): the object resource, {@code kind,
 *       id, selfLink, mediaLink, name, bucket, generation, metageneration, contentType,
 *       storageClass, size, md5Hash, crc32c, etag, timeCreated, updated}; with {@code alt=media}
 *       its data
 *   <li>{@code GET /storage/v1/b/BUCKET/o} (objects/list): {@code prefix}, {@code delimiter} (then
 *       {@code prefixes[]}), {@code maxResults}, {@code pageToken}; answers {@code kind, items[],
 *       prefixes[], nextPageToken} in lexicographic order, at most {@value #PAGE} entries a page
 *       (the reference lets the service return fewer than asked), so callers must page
 *   <li>{@code DELETE /storage/v1/b/BUCKET/o/OBJECT} (objects/delete): 204, or 404
 *   <li>errors as the JSON API's {@code {"error": {"code", "message", "errors": [{"domain",
 *       "reason", "message"}]}}}
 * </ul>
 *
 * <p>Every storage request must carry {@code Authorization: Bearer TOKEN} with a token that {@code
 * POST /token} ({@link FakeGoogleTokens}) granted for a scope that allows the method; otherwise
 * 401.
 *
 * <p>Public, in the module's test jar, for the gateway's log-archive tests.
 */
public final class FakeGcsServer implements AutoCloseable {
  static final String CLIENT_EMAIL = FakeGoogleTokens.CLIENT_EMAIL;
  static final int PAGE = 2;
  private static final Pattern OBJECT = Pattern.compile("/storage/v1/b/([^/]+)/o/(.+)");
  private static final Pattern OBJECTS = Pattern.compile("/storage/v1/b/([^/]+)/o");
  private static final Pattern UPLOAD = Pattern.compile("/upload/storage/v1/b/([^/]+)/o");
  private static final Pattern BUCKET = Pattern.compile("/storage/v1/b/([^/]+)");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final FakeGoogleTokens tokens = new FakeGoogleTokens();
  private final Map<String, Map<String, StoredObject>> buckets = new ConcurrentHashMap<>();
  private final AtomicLong generations = new AtomicLong(1_700_000_000_000_000L);

  private record StoredObject(String name, String contentType, byte[] data, long generation) {}

  static {
    // TCP_NODELAY on the JDK's server, read once when its first server starts: without it, small
    // answers wait on Nagle's algorithm and every jclouds request takes ~100 ms longer.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  public FakeGcsServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/token", exchange -> serve(exchange, tokens::grant));
    server.createContext("/", exchange -> serve(exchange, this::storage));
    server.start();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The service account's key file, as the Cloud console downloads it, naming this server. */
  public String keyJson() {
    return tokens.keyJson(endpoint() + "/token");
  }

  /** A key file for the same account with another key, which this server does not know. */
  String otherKeyJson() {
    return tokens.otherKeyJson(endpoint() + "/token");
  }

  /** Why token grants were refused, since the last call; clears them. */
  List<String> takeRefusals() {
    return tokens.takeRefusals();
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  private static void serve(HttpExchange exchange, Handler handler) throws IOException {
    try (exchange) {
      try {
        handler.handle(exchange);
      } catch (RuntimeException e) {
        error(exchange, 500, "backendError", e.toString());
      }
    }
  }

  // --- the JSON API ---

  private void storage(HttpExchange exchange) throws IOException {
    var method = exchange.getRequestMethod();
    var auth = exchange.getRequestHeaders().getFirst("Authorization");
    var bearer = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : null;
    if (!tokens.allows(bearer, method.equals("GET") || method.equals("HEAD"))) {
      error(exchange, 401, "required", "Anonymous caller or token without the scope for " + method);
      return;
    }
    var path = exchange.getRequestURI().getRawPath();
    var query = query(exchange.getRequestURI().getRawQuery());
    java.util.regex.Matcher m;
    if ((m = UPLOAD.matcher(path)).matches() && method.equals("POST")) {
      insertObject(exchange, decode(m.group(1)), query);
    } else if ((m = OBJECT.matcher(path)).matches()) {
      var objects = buckets.get(decode(m.group(1)));
      var object = objects == null ? null : objects.get(decode(m.group(2)));
      if (object == null) {
        error(exchange, 404, "notFound", "No such object: " + decode(m.group(2)));
      } else if (method.equals("DELETE")) {
        objects.remove(object.name());
        exchange.sendResponseHeaders(204, -1);
      } else if ("media".equals(query.get("alt"))) {
        exchange.getResponseHeaders().set("Content-Type", object.contentType());
        exchange.sendResponseHeaders(200, object.data().length == 0 ? -1 : object.data().length);
        exchange.getResponseBody().write(object.data());
      } else {
        json(exchange, 200, resource(decode(m.group(1)), object));
      }
    } else if ((m = OBJECTS.matcher(path)).matches() && method.equals("GET")) {
      listObjects(exchange, decode(m.group(1)), query);
    } else if ((m = BUCKET.matcher(path)).matches() && method.equals("GET")) {
      var name = decode(m.group(1));
      if (buckets.containsKey(name)) {
        json(exchange, 200, bucket(name));
      } else {
        error(exchange, 404, "notFound", "The specified bucket does not exist.");
      }
    } else if (path.equals("/storage/v1/b") && method.equals("POST")) {
      if (!FakeGoogleTokens.PROJECT.equals(query.get("project"))) {
        error(exchange, 400, "invalid", "Invalid project " + query.get("project"));
        return;
      }
      var name = JSON.readTree(exchange.getRequestBody()).path("name").asText();
      if (buckets.putIfAbsent(name, new ConcurrentHashMap<>()) != null) {
        error(exchange, 409, "conflict", "Your previous request to create the bucket succeeded");
      } else {
        json(exchange, 200, bucket(name));
      }
    } else {
      error(exchange, 404, "notFound", "Not Found: " + method + " " + path);
    }
  }

  private void insertObject(HttpExchange exchange, String bucket, Map<String, String> query)
      throws IOException {
    var objects = buckets.get(bucket);
    if (objects == null) {
      error(exchange, 404, "notFound", "The specified bucket does not exist.");
      return;
    }
    var body = exchange.getRequestBody().readAllBytes();
    String name;
    String contentType;
    byte[] data;
    if ("multipart".equals(query.get("uploadType"))) {
      var parts = multipart(exchange.getRequestHeaders().getFirst("Content-Type"), body);
      if (parts.size() != 2) {
        error(exchange, 400, "invalid", "A multipart upload has two parts, not " + parts.size());
        return;
      }
      var metadata = JSON.readTree(parts.get(0));
      name = metadata.path("name").asText();
      contentType = metadata.path("contentType").asText("application/octet-stream");
      data = parts.get(1);
      if (metadata.has("size") && metadata.path("size").asLong() != data.length) {
        error(
            exchange, 400, "invalid", "size is " + metadata.path("size") + ", data " + data.length);
        return;
      }
    } else if ("media".equals(query.get("uploadType"))) {
      name = query.get("name");
      var header = exchange.getRequestHeaders().getFirst("Content-Type");
      contentType = header == null ? "application/octet-stream" : header;
      data = body;
    } else {
      error(exchange, 400, "invalid", "uploadType " + query.get("uploadType") + " is not served");
      return;
    }
    if (name == null || name.isEmpty()) {
      error(exchange, 400, "required", "Required: object name");
      return;
    }
    var object = new StoredObject(name, contentType, data, generations.incrementAndGet());
    objects.put(name, object);
    json(exchange, 200, resource(bucket, object));
  }

  private void listObjects(HttpExchange exchange, String bucket, Map<String, String> query)
      throws IOException {
    var objects = buckets.get(bucket);
    if (objects == null) {
      error(exchange, 404, "notFound", "The specified bucket does not exist.");
      return;
    }
    var prefix = query.getOrDefault("prefix", "");
    var delimiter = query.get("delimiter");
    // Entries in lexicographic order: objects by name, prefixes by themselves.
    var entries = new TreeMap<String, StoredObject>();
    for (var object : new TreeMap<>(objects).values()) {
      if (!object.name().startsWith(prefix)) {
        continue;
      }
      var rest = object.name().substring(prefix.length());
      int cut = delimiter == null ? -1 : rest.indexOf(delimiter);
      if (cut >= 0) {
        entries.putIfAbsent(prefix + rest.substring(0, cut + delimiter.length()), null);
      } else {
        entries.put(object.name(), object);
      }
    }
    var after = query.get("pageToken");
    int max = Math.min(PAGE, Integer.parseInt(query.getOrDefault("maxResults", "1000")));
    var page = (after == null ? entries : entries.tailMap(decodeToken(after), false));
    var items = new ArrayList<Map<String, Object>>();
    var prefixes = new ArrayList<String>();
    String last = null;
    for (var entry : page.entrySet()) {
      if (items.size() + prefixes.size() == max) {
        break;
      }
      if (entry.getValue() == null) {
        prefixes.add(entry.getKey());
      } else {
        items.add(resource(bucket, entry.getValue()));
      }
      last = entry.getKey();
    }
    var answer = new LinkedHashMap<String, Object>();
    answer.put("kind", "storage#objects");
    if (last != null && !page.tailMap(last, false).isEmpty()) {
      answer.put("nextPageToken", Base64.getUrlEncoder().encodeToString(last.getBytes()));
    }
    if (!prefixes.isEmpty()) {
      answer.put("prefixes", prefixes);
    }
    if (!items.isEmpty()) {
      answer.put("items", items);
    }
    json(exchange, 200, answer);
  }

  private static String decodeToken(String token) {
    return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
  }

  private Map<String, Object> bucket(String name) {
    var bucket = new LinkedHashMap<String, Object>();
    bucket.put("kind", "storage#bucket");
    bucket.put("id", name);
    bucket.put("selfLink", endpoint() + "/storage/v1/b/" + name);
    bucket.put("projectNumber", "104729374628");
    bucket.put("name", name);
    bucket.put("timeCreated", "2026-12-01T00:00:00.000Z");
    bucket.put("updated", "2026-12-01T00:00:00.000Z");
    bucket.put("metageneration", "1");
    bucket.put("location", "US");
    bucket.put("storageClass", "STANDARD");
    bucket.put("etag", "CAE=");
    return bucket;
  }

  private Map<String, Object> resource(String bucket, StoredObject object) {
    var encoded = java.net.URLEncoder.encode(object.name(), StandardCharsets.UTF_8);
    var link = endpoint() + "/storage/v1/b/" + bucket + "/o/" + encoded;
    var crc = new java.util.zip.CRC32C();
    crc.update(object.data());
    var resource = new LinkedHashMap<String, Object>();
    resource.put("kind", "storage#object");
    resource.put("id", bucket + "/" + object.name() + "/" + object.generation());
    resource.put("selfLink", link);
    resource.put("mediaLink", link + "?generation=" + object.generation() + "&alt=media");
    resource.put("name", object.name());
    resource.put("bucket", bucket);
    resource.put("generation", Long.toString(object.generation()));
    resource.put("metageneration", "1");
    resource.put("contentType", object.contentType());
    resource.put("storageClass", "STANDARD");
    resource.put("size", Integer.toString(object.data().length));
    resource.put("md5Hash", Base64.getEncoder().encodeToString(md5(object.data())));
    resource.put(
        "crc32c",
        Base64.getEncoder()
            .encodeToString(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array()));
    resource.put("etag", "CKih16GjycICEAE=");
    var time = Instant.ofEpochMilli(object.generation() / 1000).toString();
    resource.put("timeCreated", time);
    resource.put("updated", time);
    return resource;
  }

  /** The parts of a multipart body, by the boundary its Content-Type names. */
  private static List<byte[]> multipart(String contentType, byte[] body) {
    var matcher = Pattern.compile("boundary=\\s*\"?([^\";]+)\"?").matcher(contentType);
    if (contentType == null || !contentType.startsWith("multipart/") || !matcher.find()) {
      throw new IllegalArgumentException("not a multipart body: " + contentType);
    }
    var delimiter = ("--" + matcher.group(1).strip()).getBytes(StandardCharsets.US_ASCII);
    var parts = new ArrayList<byte[]>();
    int at = indexOf(body, delimiter, 0);
    while (at >= 0) {
      int start = at + delimiter.length;
      if (body.length >= start + 2 && body[start] == '-' && body[start + 1] == '-') {
        break; // the closing delimiter
      }
      int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), start);
      int next = indexOf(body, ("\r\n" + new String(delimiter)).getBytes(), headersEnd);
      if (headersEnd < 0 || next < 0) {
        throw new IllegalArgumentException("a multipart body without its closing delimiter");
      }
      parts.add(Arrays.copyOfRange(body, headersEnd + 4, next));
      at = next + 2;
    }
    return parts;
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = Math.max(from, 0); i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static byte[] md5(byte[] data) {
    try {
      return MessageDigest.getInstance("MD5").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> query(String raw) {
    var query = new HashMap<String, String>();
    if (raw == null) {
      return query;
    }
    for (var pair : raw.split("&")) {
      var eq = pair.indexOf('=');
      if (eq > 0) {
        query.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
    }
    return query;
  }

  /** Percent-decoding of a path segment or query part; a path's {@code +} stays a plus. */
  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static void error(HttpExchange exchange, int code, String reason, String message)
      throws IOException {
    var detail = Map.of("domain", "global", "reason", reason, "message", message);
    json(
        exchange,
        code,
        Map.of("error", Map.of("code", code, "message", message, "errors", List.of(detail))));
  }

  private static void json(HttpExchange exchange, int status, Object body) throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
