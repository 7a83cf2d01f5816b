package io.trainyard.backend.eks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.MockServerExpectation;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.trainyard.backend.kubernetes.KubernetesTestParts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's API server in CRUD mode over TLS, with the Kubeflow v1 CRDs: the kubernetes module's
 * CrudApiServer, but serving https with a self-signed certificate that stands for the cluster CA
 * EKS would hand out, so the EKS client's trust of {@code certificateAuthority.data} is exercised.
 */
final class HttpsApiServer implements AutoCloseable {
  private final MockWebServer web = new MockWebServer();
  private final KubernetesMockServer server;
  private final KubernetesClient admin;

  HttpsApiServer() {
    var responses = new HashMap<ServerRequest, Queue<ServerResponse>>();
    server =
        new KubernetesMockServer(
            new Context(), web, responses, new KubernetesMixedDispatcher(responses), true);
    server.init();
    admin = server.createClient();
    try (var crds = HttpsApiServer.class.getResourceAsStream(KubernetesTestParts.crdsResource())) {
      admin.load(crds).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where EKS would say the API server is, with this server's certificate as the CA. */
  EksClusterEndpoint endpoint() {
    try {
      var pem = Files.readAllBytes(Path.of(web.getSelfSignedCertificate().certificatePath()));
      return new EksClusterEndpoint(
          URI.create(server.url("/")), Base64.getEncoder().encodeToString(pem));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A client of the tests' own, to look at what the backend created. */
  KubernetesClient admin() {
    return admin;
  }

  MockServerExpectation expect() {
    return server.expect();
  }

  void clearExpectations() {
    server.clearExpectations();
  }

  /** Takes the requests recorded so far, oldest first. */
  List<RecordedRequest> drainRequests() throws InterruptedException {
    var taken = new ArrayList<RecordedRequest>();
    RecordedRequest r;
    while ((r = server.takeRequest(1, TimeUnit.MILLISECONDS)) != null) {
      taken.add(r);
    }
    return taken;
  }

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
