package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.testkit.CrdSchema;
import java.util.List;
import java.util.Map;

/**
 * Checks a Kubeflow document against its operator's CRD schema (the trimmed copies in {@code
 * crds/}: the training operator's v1 kinds, the MPI Operator v2's v2beta1 MPIJob and Kubeflow
 * Trainer's TrainJob), choosing the file by kind and API version; the checking itself is {@link
 * CrdSchema}'s.
 */
final class CrdSchemaChecker {
  private static final Map<String, String> FILES =
      Map.of(
          "PyTorchJob", "kubeflow.org_pytorchjobs.yaml",
          "TFJob", "kubeflow.org_tfjobs.yaml",
          "MPIJob", "kubeflow.org_mpijobs.yaml",
          "XGBoostJob", "kubeflow.org_xgboostjobs.yaml",
          "PaddleJob", "kubeflow.org_paddlejobs.yaml",
          "JAXJob", "kubeflow.org_jaxjobs.yaml",
          "TrainJob", "trainer.kubeflow.org_trainjobs.yaml");

  private final CrdSchema schema = new CrdSchema("/crds/");

  /** Every way {@code document} breaks its kind's schema, as {@code "path: problem"}. */
  List<String> check(JsonNode document) {
    var file =
        document.path("apiVersion").asText().equals(KubeflowKind.MPI_V2_API_VERSION)
            ? "kubeflow.org_mpijobs.v2beta1.yaml" // the MPI Operator v2's MPIJob
            : FILES.get(document.path("kind").asText());
    if (file == null) {
      return List.of("kind: no CRD for '" + document.path("kind").asText() + "'");
    }
    return schema.check(file, document);
  }
}
