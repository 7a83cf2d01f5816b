package io.trainyard.gateway.reliability;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.backend.kubernetes.CrudApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * fabric8's CRUD API server in this JVM, as the Kubernetes cluster that gateway processes submit to
 * through a kubeconfig: what it holds is what the backend really created, so duplicates are
 * counted, not inferred.
 */
final class KubernetesTarget implements AutoCloseable {
  private final CrudApiServer server = new CrudApiServer();

  /**
   * Writes a kubeconfig for {@code url} (the server's own, or a proxy's in front of it) and returns
   * the {@code backends:} entry of a {@code type: kubernetes} backend using it.
   */
  String backendYaml(String id, Path dir, String url) {
    var kubeconfig = dir.resolve(id + ".kubeconfig");
    try {
      Files.createDirectories(dir);
      Files.writeString(kubeconfig, CrudApiServer.kubeconfig(url));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return """
        - type: kubernetes
          id: %s
          region: us-east-1
          kubeconfig: %s
          provider: aws
          nodePools: [{name: cpu, instanceType: m5.2xlarge, maxNodes: 2000}]
        """
        .formatted(id, kubeconfig);
  }

  String url() {
    return server.url();
  }

  CrudApiServer server() {
    return server;
  }

  /** Every PyTorchJob in {@code namespace}: the backend objects the gateways created. */
  List<GenericKubernetesResource> pytorchJobs(String namespace) {
    return server
        .client()
        .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
        .inNamespace(namespace)
        .list()
        .getItems();
  }

  @Override
  public void close() {
    server.close();
  }
}
