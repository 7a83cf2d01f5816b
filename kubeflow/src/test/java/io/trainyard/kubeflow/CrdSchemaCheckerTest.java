package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.RefusalsTest.change;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The checker the golden tests rely on catches what the API server would. */
class CrdSchemaCheckerTest {
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/bogus | 1 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].bogus: is not in the schema
          /spec/pytorchReplicaSpecs/Master/replicas | '1' | spec.pytorchReplicaSpecs.Master.replicas: must be an integer
          /spec/pytorchReplicaSpecs/Master/replicas | 4294967296 | spec.pytorchReplicaSpecs.Master.replicas: must fit in 32 bits
          /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/cpu | 'two' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.cpu: 'two' does not match
          /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/cpu | true | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.cpu: must be an integer or a string
          /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/name | ~ | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].name: is required
          /spec/pytorchReplicaSpecs/Master/template/spec/containers | ~ | spec.pytorchReplicaSpecs.Master.template.spec.containers: is required
          /spec/pytorchReplicaSpecs | ~ | spec.pytorchReplicaSpecs: is required
          /spec/nprocPerNode | 4 | spec.nprocPerNode: must be a string
          /spec/runPolicy/suspend | 'no' | spec.runPolicy.suspend: must be a boolean
          /spec/runPolicy/schedulingPolicy/minResources/cpu | '1.5.2' | spec.runPolicy.schedulingPolicy.minResources.cpu: '1.5.2' does not match
          /spec/pytorchReplicaSpecs/Master/template/spec/volumes/0/nfs | {server: s, path: /} | spec.pytorchReplicaSpecs.Master.template.spec.volumes[0].nfs: is not in the schema
          """)
  void findsWhatTheApiServerWould(String pointer, String value, String error) {
    var errors = crd.check(change("pt", pointer, value));
    assertThat(errors).anySatisfy(e -> assertThat(e).startsWith(error));
  }
}
