package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.spi.BackendException;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The API server's answers, as the SPI's typed errors: a table. */
class KubernetesErrorsTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "403 | pytorchjobs.kubeflow.org \"j\" is forbidden: exceeded quota: gpu, requested:"
            + " requests.nvidia.com/gpu=4, used: requests.nvidia.com/gpu=6, limited:"
            + " requests.nvidia.com/gpu=8 | CapacityUnavailable",
        "403 | admission webhook \"vpytorchjob.kb.io\" denied the request: spec is invalid"
            + " | Rejected",
        "400 | admission webhook \"validation.kueue.x-k8s.io\" denied the request: queue-name"
            + " missing | Rejected",
        "403 | pytorchjobs.kubeflow.org is forbidden: User \"system:serviceaccount:ty:gw\" cannot"
            + " create resource \"pytorchjobs\" in API group \"kubeflow.org\" | Unauthenticated",
        "403 | pytorchjobs.kubeflow.org is forbidden: User \"alice\" cannot list resource"
            + " \"pytorchjobs\" | Unauthenticated",
        "403 | unable to create new content in namespace nlp because it is being terminated"
            + " | Rejected",
        "401 | Unauthorized | Unauthenticated",
        "404 | pytorchjobs.kubeflow.org \"j\" not found | NotFound",
        "409 | Operation cannot be fulfilled: the object has been modified | Rejected",
        "422 | PyTorchJob.kubeflow.org \"j\" is invalid: spec.pytorchReplicaSpecs: Required value"
            + " | Rejected",
        "429 | Too many requests, please try again later. | Retryable",
        "500 | Internal error occurred: etcdserver: request timed out | Retryable",
        "503 | the server is currently unable to handle the request | Retryable",
      })
  void answersAreTyped(int code, String message, String type) {
    var e =
        new KubernetesClientException(
            "Failure executing: POST", code, CrudApiServer.status(code, "X", message));
    var translated = KubernetesErrors.translate(e, "create PyTorchJob nlp/j");
    assertThat(translated.getClass().getSimpleName()).isEqualTo(type);
    assertThat(translated.getMessage()).isEqualTo("create PyTorchJob nlp/j: " + message);
  }

  @Test
  void aTimeoutWithoutAnAnswerIsRetryableAndABare403IsOurCredentials() {
    var timeout =
        new KubernetesClientException(
            "An error has occurred.", new IOException("timeout: no answer in 10s"));
    assertThat(KubernetesErrors.translate(timeout, "read"))
        .isInstanceOf(BackendException.Retryable.class)
        .hasMessage("read: IOException: timeout: no answer in 10s");
    var bare = new KubernetesClientException("Forbidden", 403, null);
    assertThat(KubernetesErrors.translate(bare, "read"))
        .isInstanceOf(BackendException.Unauthenticated.class);
  }
}
