package io.trainyard.backend.azureml;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * azure-core's {@link HttpClient} over the JDK's {@code java.net.http.HttpClient}. azure-core finds
 * an implementation through a service lookup otherwise, and the ones it knows (Netty, OkHttp, its
 * own JDK one) are not all servable here; Netty would also pull a second Netty generation into the
 * gateway. Given explicitly to the ARM pipeline and the azure-identity credential builders.
 *
 * <p>Bodies are read whole: ARM answers and the log ranges we ask for are small. Thread-safe.
 */
final class JdkAzureHttpClient implements HttpClient {
  // The JDK client refuses to set these itself; azure-core policies may add them.
  private static final Set<String> RESTRICTED =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  private final java.net.http.HttpClient client;
  private final Duration timeout;

  JdkAzureHttpClient(java.net.http.HttpClient client, Duration timeout) {
    this.client = Objects.requireNonNull(client, "client");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** A client with the JDK's defaults (system trust store, system proxy). */
  static JdkAzureHttpClient standard(Duration timeout) {
    return new JdkAzureHttpClient(
        java.net.http.HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(java.net.http.HttpClient.Redirect.NEVER)
            .build(),
        timeout);
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request) {
    return Mono.fromCallable(() -> sendSync(request, Context.NONE));
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request, Context context) {
    return Mono.fromCallable(() -> sendSync(request, context));
  }

  @Override
  public HttpResponse sendSync(HttpRequest request, Context context) {
    var body = request.getBodyAsBinaryData();
    var bytes = body == null ? null : body.toBytes();
    var builder =
        java.net.http.HttpRequest.newBuilder(toUri(request))
            .timeout(timeout)
            .method(
                request.getHttpMethod().name(),
                bytes == null || bytes.length == 0
                    ? BodyPublishers.noBody()
                    : BodyPublishers.ofByteArray(bytes));
    request
        .getHeaders()
        .forEach(
            h -> {
              if (!RESTRICTED.contains(h.getName().toLowerCase(java.util.Locale.ROOT))) {
                for (var value : h.getValuesList()) {
                  builder.header(h.getName(), value);
                }
              }
            });
    try {
      var response = client.send(builder.build(), BodyHandlers.ofByteArray());
      var headers = new HttpHeaders();
      response
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!name.startsWith(":")) {
                  headers.set(HttpHeaderName.fromString(name), values);
                }
              });
      return new Buffered(request, response.statusCode(), headers, response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(
          request.getHttpMethod() + " " + request.getUrl().getHost() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while calling " + request.getUrl().getHost());
    }
  }

  private static java.net.URI toUri(HttpRequest request) {
    try {
      return request.getUrl().toURI();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException("not a URI: " + request.getUrl(), e);
    }
  }

  /** A response whose body has been read. */
  private static final class Buffered extends HttpResponse {
    private final int status;
    private final HttpHeaders headers;
    private final byte[] body;

    Buffered(HttpRequest request, int status, HttpHeaders headers, byte[] body) {
      super(request);
      this.status = status;
      this.headers = headers;
      this.body = body == null ? new byte[0] : body;
    }

    @Override
    public int getStatusCode() {
      return status;
    }

    @Override
    @SuppressWarnings("deprecation")
    public String getHeaderValue(String name) {
      return headers.getValue(name);
    }

    @Override
    public HttpHeaders getHeaders() {
      return headers;
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      return body.length == 0 ? Flux.empty() : Flux.just(ByteBuffer.wrap(body));
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return body.length == 0 ? Mono.empty() : Mono.just(body);
    }

    @Override
    public Mono<String> getBodyAsString() {
      return getBodyAsString(StandardCharsets.UTF_8);
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return body.length == 0 ? Mono.empty() : Mono.just(new String(body, charset));
    }

    @Override
    public com.azure.core.util.BinaryData getBodyAsBinaryData() {
      return com.azure.core.util.BinaryData.fromBytes(body);
    }
  }
}
