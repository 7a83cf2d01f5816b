package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Client spans are named by RBAC verb and resource, never by object names (low cardinality). */
class KubernetesCallSpansTest {
  @ParameterizedTest
  @CsvSource({
    "POST, /apis/kubeflow.org/v1/namespaces/ml/pytorchjobs, create, pytorchjobs",
    "GET, /apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/ty-01-a1, get, pytorchjobs",
    "GET, /apis/kubeflow.org/v1/namespaces/ml/pytorchjobs, list, pytorchjobs",
    "DELETE, /apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/ty-01-a1, delete, pytorchjobs",
    "PATCH, /apis/kubeflow.org/v1/namespaces/ml/pytorchjobs/ty-01-a1, patch, pytorchjobs",
    "PUT, /api/v1/namespaces/ml/configmaps/ty-01-a1, update, configmaps",
    "GET, /api/v1/namespaces/ml/pods/ty-01-a1-master-0/log, get, pods/log",
    "GET, /api/v1/namespaces/ml/pods, list, pods",
    "GET, /api/v1/namespaces/ml, get, namespaces",
    "GET, /api/v1/namespaces, list, namespaces",
    "GET, /api/v1/nodes, list, nodes",
    "GET, /apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes, list,"
        + " clustertrainingruntimes",
  })
  void namesACallByVerbAndResource(String method, String path, String verb, String resource) {
    assertThat(KubernetesCallSpans.operation(method, path)).isEqualTo(verb);
    assertThat(KubernetesCallSpans.resource(path)).isEqualTo(resource);
  }
}
