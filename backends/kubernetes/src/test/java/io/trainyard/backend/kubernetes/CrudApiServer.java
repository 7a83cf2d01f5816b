package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's API server in CRUD mode, in-process, with the Kubeflow v1 CRDs and Kubeflow Trainer's
 * TrainJob CRD registered: objects are stored, listed, watched and deleted as a real API server
 * would, with the limits of ../shared/DEPENDENCIES.md (no admission, quota, controllers or garbage
 * collection). Expectations set with {@link #expect()} answer before the CRUD store does, for what
 * it cannot do (a quota's 403, pod logs).
 */
public final class CrudApiServer implements AutoCloseable {
  private static final String ADMIN_AGENT = "trainyard-test-admin";

  /**
   * The mock server (fabric8 8.0.0) blocks its event loop while a closed watch's executor shuts
   * down ({@code WatchEventsListener.onClosed} waits up to a minute), and requests on that loop
   * wait with it: seen to outlast the client's default 10 s on a loaded machine. Clients of this
   * server wait longer, so such a pause slows a test instead of failing it.
   */
  private static final int REQUEST_TIMEOUT_MS = 90_000;

  private final MockWebServer web = new MockWebServer();
  private final List<RecordedRequest> taken = new ArrayList<>();
  private final KubernetesMockServer server;
  private final KubernetesClient client;

  /** A server on plain http. */
  public CrudApiServer() {
    this(false);
  }

  /**
   * @param https serve TLS with a self-signed certificate ({@link #caCertificateBase64()}), which
   *     stands for the cluster CA a managed service hands out
   */
  public CrudApiServer(boolean https) {
    this(https, false);
  }

  /**
   * @param mpiOperatorV2 serve {@code mpijobs.kubeflow.org} as the MPI Operator v2 does ({@code
   *     v2beta1}) instead of as the training operator does ({@code v1})
   */
  public CrudApiServer(boolean https, boolean mpiOperatorV2) {
    var responses = new HashMap<ServerRequest, Queue<ServerResponse>>();
    server =
        new KubernetesMockServer(
            new Context(), web, responses, new KubernetesMixedDispatcher(responses), https);
    server.init();
    client =
        server.createClient(
            b ->
                b.editOrNewConfig()
                    .withUserAgent(ADMIN_AGENT)
                    .withRequestTimeout(REQUEST_TIMEOUT_MS)
                    .endConfig());
    var files = new ArrayList<>(List.of("/crds/kubeflow-v1.yaml", "/crds/trainer-v2.yaml"));
    if (mpiOperatorV2) {
      files.add("/crds/mpi-operator-v2.yaml");
    }
    for (var crds : files) {
      try (var in = CrudApiServer.class.getResourceAsStream(crds)) {
        for (var crd : client.load(in).items()) {
          var v1MpiJobs =
              crds.endsWith("kubeflow-v1.yaml")
                  && crd.getMetadata().getName().equals("mpijobs.kubeflow.org");
          if (!(mpiOperatorV2 && v1MpiJobs)) {
            client.resource(crd).create();
          }
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** A client of this server, as a gateway would have; a new one stands for a restarted gateway. */
  public KubernetesClient newClient() {
    return server.createClient(
        b -> b.editOrNewConfig().withRequestTimeout(REQUEST_TIMEOUT_MS).endConfig());
  }

  /** A client that names itself {@code userAgent}, so its requests can be told from others'. */
  public KubernetesClient newClient(String userAgent) {
    return server.createClient(
        b ->
            b.editOrNewConfig()
                .withUserAgent(userAgent)
                .withRequestTimeout(REQUEST_TIMEOUT_MS)
                .endConfig());
  }

  /** The client the tests' own operator and assertions use. */
  public KubernetesClient client() {
    return client;
  }

  public io.fabric8.mockwebserver.dsl.MockServerExpectation expect() {
    return server.expect();
  }

  /** Drops every expectation, the server's own {@code /version} answer too. */
  public void clearExpectations() {
    server.clearExpectations();
  }

  /**
   * The https server's certificate, PEM in base64, as EKS's {@code certificateAuthority.data} and
   * GKE's {@code masterAuth.clusterCaCertificate} give a cluster's CA.
   */
  public String caCertificateBase64() {
    try {
      var pem =
          java.nio.file.Files.readAllBytes(
              java.nio.file.Path.of(web.getSelfSignedCertificate().certificatePath()));
      return java.util.Base64.getEncoder().encodeToString(pem);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public String url() {
    return server.url("/");
  }

  /** A kubeconfig for this server, as a gateway's {@code kubeconfig:} setting reads one. */
  public String kubeconfig() {
    return kubeconfig(url());
  }

  /**
   * A kubeconfig for the API server at {@code serverUrl} (this one's, or a proxy's in front of it);
   * the server checks no token.
   */
  public static String kubeconfig(String serverUrl) {
    return """
        apiVersion: v1
        kind: Config
        clusters: [{name: crud, cluster: {server: "%s"}}]
        users: [{name: gateway, user: {token: not-checked}}]
        contexts: [{name: crud, context: {cluster: crud, user: gateway}}]
        current-context: crud
        """
        .formatted(serverUrl);
  }

  /** Requests served so far, of any client. */
  public int requestCount() {
    return server.getRequestCount();
  }

  public int port() {
    return server.getPort();
  }

  /**
   * The {@code Authorization} headers of every request so far not made by {@link #client()}, oldest
   * first ({@code "null"} for none). Takes the recorded requests, like {@link #drainRequests}.
   */
  public synchronized List<String> authorizations() throws InterruptedException {
    taken.addAll(drainRequests());
    return taken.stream()
        .filter(q -> !ADMIN_AGENT.equals(q.getHeader("User-Agent")))
        .map(q -> String.valueOf(q.getHeader("Authorization")))
        .toList();
  }

  /** Takes the requests recorded so far, oldest first. */
  public List<RecordedRequest> drainRequests() throws InterruptedException {
    var taken = new ArrayList<RecordedRequest>();
    RecordedRequest r;
    while ((r = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
      taken.add(r);
    }
    return taken;
  }

  /** A Kubernetes {@code Status} body, as the API server answers errors. */
  public static io.fabric8.kubernetes.api.model.Status status(
      int code, String reason, String message) {
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(code)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  /**
   * Stops the server. Its shutdown waits a bounded time for open connections (a watch a closed
   * client has not finished tearing down); on a loaded machine that wait can run out, which says
   * nothing about the test that used the server, so it is reported and not thrown.
   */
  @Override
  public void close() {
    client.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      System.err.println("CrudApiServer: " + e.getMessage() + " (connections still closing)");
    }
  }
}
