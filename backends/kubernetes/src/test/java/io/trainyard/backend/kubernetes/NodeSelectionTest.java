package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.Rejection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job's own node selection against the pools' node labels (the pool's {@code labels} plus the
 * well-known ones, {@link NodeLabels}), by the scheduler's rules
 * (kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/): nodeSelector entries must all
 * equal; of the required affinity's terms one must match, a term's expressions all. A label a pool
 * does not state is not held against it.
 */
class NodeSelectionTest {
  /** A pool of m5.2xlarge, on demand, labelled {@code pool: cpu, zone-group: a} on AWS. */
  private static final Map<String, String> CPU =
      Map.of(
          "pool",
          "cpu",
          "gpu-count",
          "0",
          NodeLabels.INSTANCE_TYPE,
          "m5.2xlarge",
          NodeLabels.EKS_CAPACITY_TYPE,
          "ON_DEMAND",
          NodeLabels.REGION,
          "us-east-1",
          NodeLabels.OS,
          "linux");

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "nodeSelector: {pool: cpu}                                     | match",
        "nodeSelector: {pool: a10g}                                    | spec.kubernetes.podTemplate.nodeSelector pool=a10g (its nodes have cpu)",
        "nodeSelector: {node.kubernetes.io/instance-type: m5.2xlarge}  | match",
        "nodeSelector: {eks.amazonaws.com/capacityType: SPOT}          | spec.kubernetes.podTemplate.nodeSelector eks.amazonaws.com/capacityType=SPOT (its nodes have ON_DEMAND)",
        "nodeSelector: {topology.kubernetes.io/zone: us-east-1a}       | match",
        "nodeSelector: {dedicated: ml}                                 | match",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [a10g, a100]}]}]}}}' | spec.kubernetes.podTemplate.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: pool In [a10g, a100] (its nodes have cpu)",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [a10g]}]}, {matchExpressions: [{key: pool, operator: In, values: [cpu]}]}]}}}' | match",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: NotIn, values: [cpu]}]}]}}}' | spec.kubernetes.podTemplate.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: pool NotIn [cpu] (its nodes have cpu)",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: DoesNotExist}]}]}}}' | spec.kubernetes.podTemplate.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: pool DoesNotExist (its nodes have cpu)",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: Exists}, {key: gpu-count, operator: Gt, values: [\"0\"]}]}]}}}' | spec.kubernetes.podTemplate.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: gpu-count Gt [0] (its nodes have 0)",
        "'affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: gpu-count, operator: Lt, values: [\"1\"]}]}]}}}' | match",
        "'affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: [{key: pool, operator: In, values: [a10g]}]}}]}}' | match",
      })
  void aPoolIsRuledOutOnlyWhenItsKnownLabelsContradictTheSelection(
      String podTemplate, String expected) {
    var spec =
        TestJobs.spec(
            "framework: pytorch\nimage: i\nreplicas: {master: 1}\nkubernetes: {podTemplate: {"
                + podTemplate
                + "}}\n");
    var conflict = NodeSelection.of(spec, spec.roleSpecs().get(0)).conflict(CPU);
    assertThat(conflict == null ? "match" : conflict).isEqualTo(expected);
  }

  @Test
  void aRolesOwnSelectionIsNamedAsTheRolesField() {
    var spec =
        TestJobs.spec(
            """
            framework: pytorch
            image: i
            replicas: {master: 1, worker: 1}
            roles: {worker: {kubernetes: {podTemplate: {nodeSelector: {pool: a10g}}}}}
            """);
    var worker = spec.roleSpecs().stream().filter(r -> r.name().equals("worker")).findFirst();
    assertThat(NodeSelection.of(spec, worker.orElseThrow()).conflict(CPU))
        .isEqualTo(
            "spec.roles.worker.kubernetes.podTemplate.nodeSelector pool=a10g (its nodes have cpu)");
    assertThat(NodeSelection.of(spec, spec.roleSpecs().get(0)).conflict(CPU)).isNull();
  }

  @Test
  void poolsTheJobCannotSelectAreNotUsedAndWhenNoneIsLeftTheOfferIsRefusedNamingTheField() {
    var placements =
        new KubernetesPlacements(
            TestJobs.config(TestJobs.AWS_POOLS).settings(), PriceCatalog.embedded());
    var onDemandOnly =
        placements.propose(
            TestJobs.spec(
                """
                framework: pytorch
                image: i
                resources: {gpus: 1, cpus: 4, memory: 16Gi}
                replicas: {master: 1, worker: 1}
                placement: {spot: allowed}
                kubernetes: {podTemplate: {nodeSelector: {eks.amazonaws.com/capacityType: ON_DEMAND}}}
                """));
    assertThat(onDemandOnly.placements())
        .isNotEmpty()
        .allSatisfy(p -> assertThat(p.spot()).isFalse());

    var nowhere =
        placements.propose(
            TestJobs.spec(
                """
                framework: pytorch
                image: i
                resources: {gpus: 1, cpus: 4, memory: 16Gi}
                replicas: {master: 1}
                kubernetes: {podTemplate: {nodeSelector: {node.kubernetes.io/instance-type: p4d.24xlarge}}}
                """));
    assertThat(nowhere.placements()).isEmpty();
    assertThat(nowhere.rejections())
        .extracting(Rejection::reason)
        .singleElement()
        .asString()
        .startsWith("the master pods' node selection matches no node pool of k8s-use1 — pool")
        .contains(
            "pool a10g-od: spec.kubernetes.podTemplate.nodeSelector"
                + " node.kubernetes.io/instance-type=p4d.24xlarge (its nodes have g5.12xlarge)");
  }
}
