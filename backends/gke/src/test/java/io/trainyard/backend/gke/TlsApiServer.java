package io.trainyard.backend.gke;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's API server in CRUD mode over TLS, with the Kubeflow v1 CRDs (from the kubernetes
 * module's test-jar): it stands for a GKE control plane, its self-signed certificate for the
 * cluster CA. Requests of the test's own {@link #admin()} client are told apart by user agent.
 */
final class TlsApiServer implements AutoCloseable {
  static final String ADMIN_AGENT = "test-admin";

  private final KubernetesMockServer server;
  private final KubernetesClient admin;
  private final List<RecordedRequest> taken = new ArrayList<>();

  TlsApiServer() {
    var responses = new HashMap<ServerRequest, Queue<ServerResponse>>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new KubernetesMixedDispatcher(responses),
            true);
    server.init();
    admin = server.createClient(b -> b.editOrNewConfig().withUserAgent(ADMIN_AGENT).endConfig());
    try (var crds = TlsApiServer.class.getResourceAsStream("/crds/kubeflow-v1.yaml")) {
      admin.load(crds).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code https://localhost:<port>/}. */
  String url() {
    return server.url("/");
  }

  int port() {
    return server.getPort();
  }

  /** The server certificate's PEM, base64-encoded, as GKE gives {@code clusterCaCertificate}. */
  String caCertificate() {
    try {
      return Base64.getEncoder()
          .encodeToString(
              Files.readAllBytes(Path.of(server.getSelfSignedCertificate().certificatePath())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A client that trusts this server and sends no credentials; for the test's own checks. */
  KubernetesClient admin() {
    return admin;
  }

  /** An answer given before the CRUD store's; see {@link #clearExpectations()} for /version. */
  MockServerExpectation expect() {
    return server.expect();
  }

  /** Drops every expectation, the server's own {@code /version} answer too. */
  void clearExpectations() {
    server.clearExpectations();
  }

  /** The {@code Authorization} headers of requests not made by {@link #admin()}, oldest first. */
  synchronized List<String> authorizations() throws InterruptedException {
    RecordedRequest r;
    while ((r = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
      taken.add(r);
    }
    return taken.stream()
        .filter(q -> !ADMIN_AGENT.equals(q.getHeader("User-Agent")))
        .map(q -> String.valueOf(q.getHeader("Authorization")))
        .toList();
  }

  static Status status(int code, String reason, String message) {
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(code)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
