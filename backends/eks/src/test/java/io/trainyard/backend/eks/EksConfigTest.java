package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendFactory;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EksConfigTest {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  static {
    YAML.registerSubtypes(EksConfig.class);
  }

  static final String POOLS =
      """
      nodePools:
        - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, reserved: {cpus: 0.5, memory: 2Gi}}
        - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: a10g}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
      """;

  static final String MINIMAL = "type: eks\nid: eks-prod-use1\nregion: us-east-1\n" + POOLS;

  static EksConfig read(String yaml) throws Exception {
    return (EksConfig) YAML.readValue(yaml, BackendConfig.class);
  }

  @Test
  void aTrainerBlockDeclaresItsRuntimesAndPodPatches() throws Exception {
    var config =
        read(
            MINIMAL
                + "clusterName: ml-prod\n"
                + "flavor: trainer-v2\ntrainerRuntime: torch-distributed\n"
                + "runtimes: {torch-efa: pytorch}\ntrainerPodPatches: podSpecOverrides\n");
    assertThat(config.trainerRuntimes())
        .containsExactly(java.util.Map.entry("torch-efa", io.trainyard.spi.spec.Framework.PYTORCH));
    assertThat(config.settings().effectivePodPatches()).isEqualTo("podSpecOverrides");
  }

  @Test
  void aBlockSaysWhichMpiOperatorTheClusterRuns() throws Exception {
    var v2 = read(MINIMAL + "clusterName: ml-prod\nmpiOperator: mpi-operator-v2\n");
    var byDefault = read(MINIMAL + "clusterName: ml-prod\n");

    assertThat(v2.settings().mpiOperator())
        .isEqualTo(io.trainyard.kubeflow.KubeflowWriter.MpiOperator.MPI_OPERATOR_V2);
    assertThat(byDefault.settings().mpiOperator())
        .isEqualTo(io.trainyard.kubeflow.KubeflowWriter.MpiOperator.TRAINING_OPERATOR);
    assertThatThrownBy(() -> read(MINIMAL + "clusterName: ml-prod\nmpiOperator: v2\n"))
        .hasStackTraceContaining("mpiOperator must be training-operator or mpi-operator-v2");
  }

  @Test
  void aMinimalBlockGetsTheEksFeeAndAwsPricing() throws Exception {
    var config = read(MINIMAL + "clusterName: ml-prod\n");

    assertThat(config.clusterName()).isEqualTo("ml-prod");
    assertThat(config.roleArn()).isNull();
    assertThat(config.eksEndpointUri()).isEmpty();
    assertThat(config.stsEndpointUri()).isEmpty();
    assertThat(config.hipaaEligible()).isFalse();
    assertThat(config.discountPct()).isZero();
    var settings = config.settings();
    assertThat(settings.provider()).isEqualTo("aws");
    assertThat(settings.catalogService()).isEqualTo("ec2");
    assertThat(settings.feeUsdPerHour()).isEqualByComparingTo("0.10");
    assertThat(settings.admissionTimeout()).hasMinutes(10);
    assertThat(settings.nodePools()).hasSize(2);
    assertThat(config.roleSessionName()).isEqualTo("trainyard-eks-prod-use1");
  }

  @Test
  void bindsEveryField() throws Exception {
    var config =
        read(
            MINIMAL
                + """
                cluster: ml-prod
                roleArn: arn:aws:iam::123456789012:role/trainyard-eks
                hipaaEligible: true
                discountPct: 12.5
                eksEndpoint: https://vpce-1.eks.us-east-1.vpce.amazonaws.com
                stsEndpoint: https://vpce-2.sts.us-east-1.vpce.amazonaws.com
                flavor: kubeflow-v1
                kueueQueue: team-queue
                admissionTimeout: 5m
                feeUsdPerHour: 0.60
                """);

    assertThat(config.clusterName()).isEqualTo("ml-prod");
    assertThat(config.roleArn()).isEqualTo("arn:aws:iam::123456789012:role/trainyard-eks");
    assertThat(config.hipaaEligible()).isTrue();
    assertThat(config.discountPct()).isEqualByComparingTo("12.5");
    assertThat(config.eksEndpointUri())
        .hasValueSatisfying(u -> assertThat(u.getHost()).startsWith("vpce-1"));
    assertThat(config.stsEndpointUri())
        .hasValueSatisfying(u -> assertThat(u.getHost()).startsWith("vpce-2"));
    assertThat(config.settings().kueueQueue()).isEqualTo("team-queue");
    assertThat(config.settings().admissionTimeout()).hasMinutes(5);
    assertThat(config.settings().feeUsdPerHour()).isEqualByComparingTo("0.60");
  }

  @Test
  void theFactoryIsFoundByKind() {
    var factory =
        ServiceLoader.load(BackendFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(f -> f.kind().equals("eks"))
            .findFirst()
            .orElseThrow();
    assertThat(factory).isInstanceOf(EksBackendFactory.class);
    assertThat(factory.configClass()).isEqualTo(EksConfig.class);
  }

  static Stream<Arguments> badBlocks() {
    return Stream.of(
        Arguments.of("no id", "type: eks\nregion: us-east-1\nclusterName: c\n" + POOLS, "id"),
        Arguments.of("no region", "type: eks\nid: e\nclusterName: c\n" + POOLS, "region"),
        Arguments.of(
            "not a region", MINIMAL.replace("us-east-1", "US East") + "clusterName: c\n", "region"),
        Arguments.of("no cluster", MINIMAL, "clusterName"),
        Arguments.of("blank cluster", MINIMAL + "clusterName: ' '\n", "clusterName"),
        Arguments.of("bad cluster name", MINIMAL + "clusterName: ml/prod\n", "clusterName"),
        Arguments.of("both spellings", MINIMAL + "clusterName: a\ncluster: b\n", "clusterName"),
        Arguments.of("not a role", MINIMAL + "clusterName: c\nroleArn: trainyard\n", "roleArn"),
        Arguments.of(
            "a user, not a role",
            MINIMAL + "clusterName: c\nroleArn: arn:aws:iam::123456789012:user/bob\n",
            "roleArn"),
        Arguments.of(
            "eks endpoint no URL",
            MINIMAL + "clusterName: c\neksEndpoint: 'not a url'\n",
            "eksEndpoint"),
        Arguments.of(
            "eks endpoint no host",
            MINIMAL + "clusterName: c\neksEndpoint: 'https:///x'\n",
            "eksEndpoint"),
        Arguments.of(
            "sts endpoint ftp",
            MINIMAL + "clusterName: c\nstsEndpoint: ftp://sts.example.com\n",
            "stsEndpoint"),
        Arguments.of(
            "discount over 100", MINIMAL + "clusterName: c\ndiscountPct: 101\n", "discountPct"),
        Arguments.of(
            "negative fee", MINIMAL + "clusterName: c\nfeeUsdPerHour: -1\n", "feeUsdPerHour"),
        Arguments.of(
            "bad timeout",
            MINIMAL + "clusterName: c\nadmissionTimeout: soon\n",
            "admissionTimeout"),
        Arguments.of("unknown flavor", MINIMAL + "clusterName: c\nflavor: v9\n", "flavor"),
        Arguments.of(
            "no pools", "type: eks\nid: e\nregion: us-east-1\nclusterName: c\n", "nodePools"),
        Arguments.of(
            "provider is not a field", MINIMAL + "clusterName: c\nprovider: gcp\n", "provider"),
        Arguments.of(
            "kubeconfig is not a field",
            MINIMAL + "clusterName: c\nkubeconfig: /k\n",
            "kubeconfig"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badBlocks")
  void aBadFieldIsRefusedByName(String what, String yaml, String field) {
    var thrown = catchThrowable(() -> read(yaml));

    assertThat(thrown).as(what).isNotNull();
    var root = thrown;
    while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
      root = root.getCause();
    }
    if (root instanceof IllegalArgumentException) {
      assertThat(root.getMessage()).as(what).startsWith(field);
    } else {
      // Fields an eks block does not have: Jackson names them.
      assertThat(thrown.getMessage()).as(what).contains("\"" + field + "\"");
    }
  }
}
