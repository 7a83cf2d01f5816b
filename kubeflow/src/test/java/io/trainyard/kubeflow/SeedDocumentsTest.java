package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.assertSameTree;
import static io.trainyard.kubeflow.TestDocuments.tree;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The two Kubeflow documents of the seeds, read from {@code shared/examples/kubeflow/} next to the
 * repository when it is there (else from the copies in {@code seeds/}): their exact specs and
 * warnings, the fields that made the warnings necessary (the operator's CRD has no place for them),
 * and lossless round trips after those adjustments.
 */
class SeedDocumentsTest {
  private static final Path SHARED =
      Path.of(System.getProperty("trainyard.shared", "../../shared"), "examples", "kubeflow");

  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @Test
  void seed000TopLevelVolumesAreMountedInEveryReplica() {
    var document = seed("seed-000-bert-pytorchjob.yaml");
    // The operator's schema has no spec.volumes: Kubernetes would prune it and the PVC would be
    // missing from every pod. That is why the reader moves it and says so.
    assertThat(crd.check(document)).containsExactly("spec.volumes: is not in the schema");

    var conversion = reader.read(document);

    assertSameTree(
        tree(conversion.job()),
        tree(
            spec(
                """
                apiVersion: trainyard.io/v1
                kind: TrainingJob
                metadata: {name: bert-finetune}
                spec:
                  framework: pytorch
                  image: your-registry/bert-finetune:latest
                  command: [python, train.py]
                  resources: {gpus: 1}
                  restartPolicy: OnFailure
                  replicas: {master: 1, worker: 1}
                  kubernetes:
                    podTemplate:
                      containers:
                        - name: pytorch
                          volumeMounts: [{mountPath: /mnt, name: shared}]
                      volumes:
                        - name: shared
                          persistentVolumeClaim: {claimName: data-pvc}
                """)));
    assertThat(conversion.warnings())
        .containsExactly(
            "spec.volumes: the operator ignores volumes here; added to the pod template of every"
                + " replica (Master, Worker)");
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();
    assertThat(conversion.job().spec().needsKubernetes()).isTrue();
    roundTrips(document, conversion.job());
  }

  @Test
  void seed004TopLevelCleanPodPolicyAndNamespaceAreAdjusted() {
    var document = seed("seed-004-pytorchjob-master-2-workers.yaml");
    assertThat(crd.check(document)).containsExactly("spec.cleanPodPolicy: is not in the schema");

    var conversion = reader.read(document);

    assertSameTree(
        tree(conversion.job()),
        tree(
            spec(
                """
                apiVersion: trainyard.io/v1
                kind: TrainingJob
                metadata: {name: pytorch-job-example}
                spec:
                  framework: pytorch
                  image: pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime
                  command: [python, /workspace/train.py]
                  args: [--epochs, "10"]
                  resources: {gpus: 1}
                  restartPolicy: OnFailure
                  replicas: {master: 1, worker: 2}
                  cleanup: {pods: none}
                """)));
    assertThat(conversion.warnings())
        .containsExactly(
            "metadata.namespace: 'default' is not used: the job runs in its team's namespace",
            "spec.cleanPodPolicy: read as spec.runPolicy.cleanPodPolicy, where the operator reads"
                + " it now");
    // No gpuType: any GPU will do, which the spec now allows.
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();
    assertThat(conversion.job().spec().needsKubernetes()).isFalse();
    roundTrips(document, conversion.job());
  }

  @Test
  void theCopiesInTestResourcesAreTheSharedDocuments() {
    for (var name :
        new String[] {
          "seed-000-bert-pytorchjob.yaml", "seed-004-pytorchjob-master-2-workers.yaml"
        }) {
      if (Files.exists(SHARED.resolve(name))) {
        assertThat(seed(name)).isEqualTo(TestDocuments.document("seeds/" + name));
      }
    }
  }

  private void roundTrips(JsonNode document, TrainingJob job) {
    var rendered = writer.write(job);
    assertThat(crd.check(rendered)).isEmpty();
    assertSameTree(
        RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
    assertThat(reader.read(rendered).job()).isEqualTo(job);
    assertThat(reader.read(rendered).warnings()).isEmpty();
  }

  private static JsonNode seed(String name) {
    var shared = SHARED.resolve(name);
    if (!Files.exists(shared)) {
      return TestDocuments.document("seeds/" + name);
    }
    try {
      return KubeflowDocuments.parseSingle(Files.readAllBytes(shared));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TrainingJob spec(String yaml) {
    try {
      return TestDocuments.SPECS.readValue(yaml, TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
