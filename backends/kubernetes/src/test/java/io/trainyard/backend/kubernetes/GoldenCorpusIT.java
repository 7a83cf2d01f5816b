package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.kubeflow.KubeflowDocuments;
import io.trainyard.kubeflow.KubeflowReader;
import io.trainyard.kubeflow.TrainJobReader;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import io.trainyard.testkit.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every golden document of the kubeflow module ({@code golden/<name>/input.yaml}, listed in {@code
 * golden/index.txt} of its test jar) run end to end on the CRUD API server: read as the gateway
 * reads it ({@link KubeflowReader}, or {@link TrainJobReader} for {@code trainer.kubeflow.org}),
 * valid, placed on node pools big enough for every golden (the placement chosen is the first whose
 * pools allow the nodeSelector the document pins), submitted, checked on the server, driven by the
 * fake operator (or Trainer controller) from created through running to succeeded, its logs read
 * and its cleanup settings given back.
 *
 * <p>A document goes to the cluster block it is written for: {@code kubeflow.org/v2beta1} MPIJobs
 * to one with {@code mpiOperator: mpi-operator-v2} (on a server whose MPIJob CRD is the MPI
 * Operator v2's), {@code trainer.kubeflow.org} TrainJobs to a {@code flavor: trainer-v2} one, the
 * rest to a default {@code kubeflow-v1} one. One server of each MPIJob shape and one backend per
 * block serve the whole class, as a gateway's do, so a golden costs a few requests, not a server.
 *
 * <p><b>The comparison.</b> Once the job has succeeded and {@link KubernetesBackend#cleanup} has
 * given the operator back the job's own {@code cleanPodPolicy} and TTL, the object on the server
 * must be the golden's {@code rendered.yaml} (what the kubeflow module's GoldenFilesTest renders
 * from the same spec) apart from exactly what the backend adds, which is checked and then taken
 * out: the object's name and namespace (the golden's {@code name} or {@code generateName} is
 * replaced), the gateway's {@code trainyard.io/} labels, {@link PodCleanup}'s annotations, {@code
 * status} and the server's own metadata, and in each replica's pod the chosen pool's labels in
 * {@code nodeSelector} and its taints' tolerations (where the golden does not have them itself); an
 * empty {@code runPolicy} left by the cleanup is dropped. The rest is compared as a JSON tree, so
 * any field the backend loses, adds or changes fails the golden. A TrainJob's pod-level fields
 * depend on the cluster's runtime and patch settings, so only its {@code spec.trainer} is compared
 * with the golden's, and its {@code numNodes} with the spec's replicas.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GoldenCorpusIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NAMESPACE = "nlp-jobs";
  private static final String TEAM = "nlp";
  private static final String SPEC_HASH = "b".repeat(64);

  /**
   * On-demand pools for every golden: CPU for launchers, parameter servers and CPU jobs, 4-GPU and
   * 8-GPU nodes for the rest. Each is labelled with its instance type, as EKS labels nodes, so a
   * golden pinning {@code node.kubernetes.io/instance-type} is placed on a pool that allows it.
   */
  private static final String POOLS =
      """
      type: kubernetes
      id: k8s-golden
      region: us-east-1
      provider: aws
      nodePools:
        - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, labels: {node.kubernetes.io/instance-type: m5.2xlarge}}
        - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, labels: {node.kubernetes.io/instance-type: g5.12xlarge}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
        - {name: a100, instanceType: p4d.24xlarge, maxNodes: 8, labels: {node.kubernetes.io/instance-type: p4d.24xlarge}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
      """;

  private static final String MPI_V2 =
      POOLS.replace("provider: aws\n", "provider: aws\nmpiOperator: mpi-operator-v2\n");
  private static final String TRAINER_V2 =
      POOLS.replace(
          "provider: aws\n",
          "provider: aws\nflavor: trainer-v2\ntrainerRuntime: torch-distributed\n");

  /**
   * A Trainer cluster of the release a TrainJob's pod-patch field (or deadline) was written for.
   */
  private static String trainer(String podPatches) {
    return TRAINER_V2
        .replace(
            "id: k8s-golden", "id: k8s-golden-" + podPatches.toLowerCase(java.util.Locale.ROOT))
        .replace(
            "flavor: trainer-v2\n", "flavor: trainer-v2\ntrainerPodPatches: " + podPatches + "\n");
  }

  private final MutableClock clock = new MutableClock();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final Map<String, Cluster> clusters = new HashMap<>();

  /** A server, the backend of one cluster block on it, and the block's pools. */
  private record Cluster(
      CrudApiServer server,
      KubernetesBackend backend,
      List<NodePool> pools,
      FakeTrainingOperator operator,
      FakeTrainerController trainer) {}

  @BeforeAll
  void startServers(@TempDir Path dataDir) {
    var v1 = new CrudApiServer(false, false);
    var v2 = new CrudApiServer(false, true);
    opened.add(v1);
    opened.add(v2);
    clusters.put("kubeflow-v1", cluster(v1, POOLS, dataDir));
    clusters.put("mpi-operator-v2", cluster(v2, MPI_V2, dataDir));
    clusters.put("trainer-v2", cluster(v1, TRAINER_V2, dataDir));
    clusters.put("podSpecOverrides", cluster(v1, trainer("podSpecOverrides"), dataDir));
    clusters.put("runtimePatches", cluster(v1, trainer("runtimePatches"), dataDir));
  }

  @AfterAll
  void stopServers() throws Exception {
    // Backends first (their watches), then the servers.
    for (var i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private Cluster cluster(CrudApiServer server, String block, Path dataDir) {
    var config = TestJobs.config(block);
    var backend =
        KubernetesBackend.create(
            "kubernetes",
            config.settings(),
            server.newClient(),
            new BackendContext(PriceCatalog.embedded(), dataDir, clock));
    opened.add(backend::close);
    return new Cluster(
        server,
        backend,
        config.settings().nodePools(),
        new FakeTrainingOperator(server.client(), clock),
        new FakeTrainerController(server.client(), clock));
  }

  static List<String> goldens() {
    return new String(resource("golden/index.txt"), StandardCharsets.UTF_8)
        .lines()
        .filter(l -> !l.isBlank())
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void theGoldenRunsToSucceededAsItsRenderedDocument(String name) throws Exception {
    var input = KubeflowDocuments.parseSingle(resource("golden/" + name + "/input.yaml"));
    var apiVersion = input.path("apiVersion").asText();
    var trainJob = TrainJobReader.isTrainJobDocument(input);
    var cluster =
        clusters.get(
            trainJob
                ? trainerRelease(input)
                : apiVersion.equals("kubeflow.org/v2beta1") ? "mpi-operator-v2" : "kubeflow-v1");
    var converted =
        (trainJob ? new TrainJobReader().read(input) : new KubeflowReader().read(input)).job();
    assertThat(new JobSpecValidator().validate(converted)).isEmpty();
    var named = converted.metadata().name() == null ? converted.named("x7k2p") : converted;

    var spec = named.spec();
    var job = placed(cluster, named, pinnedNodeSelector(input));
    var pools = poolsByRole(cluster, job.placement());
    var backend = cluster.backend();
    var ref = backend.submit(job);
    var at = Attempt.of(ref);
    CrudServerTest.awaitWatching(backend, at.kind());

    var created = tree(cluster.operator().get(at));
    assertThat(created.path("apiVersion").asText()).isEqualTo(apiVersion);
    assertThat(created.path("kind").asText()).isEqualTo(input.path("kind").asText());
    assertThat(created.at("/metadata/namespace").asText()).isEqualTo(NAMESPACE);
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);
    if (trainJob) {
      assertThat(created.at("/spec/trainer/numNodes").asInt())
          .isEqualTo(spec.replicas().values().stream().mapToInt(Integer::intValue).sum());
      runTrainJob(cluster, ref, at, created.at("/spec/trainer/numNodes").asInt());
    } else {
      var replicas = replicaCounts(created);
      spec.replicas()
          .forEach(
              (role, count) ->
                  assertThat(replicas.get(role)).as("replicas of " + role).isEqualTo(count));
      assertThat(replicas.keySet()).isEqualTo(spec.replicas().keySet());
      runOperatorJob(cluster, ref, at, created);
    }

    backend.cleanup(ref);
    var live = tree(cluster.operator().get(at));
    var rendered =
        (ObjectNode) KubeflowDocuments.parseSingle(resource("golden/" + name + "/rendered.yaml"));
    if (trainJob) {
      assertThat(live.at("/spec/trainer")).isEqualTo(rendered.at("/spec/trainer"));
    } else {
      assertThat(withoutBackendAdditions(live, job, pools, rendered))
          .isEqualTo(withoutMetadata(rendered));
    }
  }

  /**
   * The Trainer cluster a TrainJob was written for: the release whose pod-patch field it uses (a
   * deadline needs v2.2, the runtimePatches release); the pinned CRD's otherwise.
   */
  private static String trainerRelease(JsonNode input) {
    var spec = input.path("spec");
    if (spec.has("podSpecOverrides")) {
      return "podSpecOverrides";
    }
    return spec.has("runtimePatches") || spec.has("activeDeadlineSeconds")
        ? "runtimePatches"
        : "trainer-v2";
  }

  /**
   * The job on the first placement offered whose pools allow the node selector {@code pinned}, as
   * the gateway hands it to the backend.
   */
  private static BackendJob placed(Cluster cluster, TrainingJob named, Map<String, String> pinned) {
    var proposals = cluster.backend().placements(named.spec());
    assertThat(proposals.rejections()).as("rejections").isEmpty();
    var placement =
        proposals.placements().stream()
            .filter(p -> allows(poolsByRole(cluster, p), pinned))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no placement's pools allow " + pinned));
    return new BackendJob(
        TestJobs.newJobId(),
        1,
        TEAM,
        "alice",
        named.metadata().name(),
        named.spec(),
        SPEC_HASH,
        placement,
        Map.of("namespace", NAMESPACE));
  }

  private void runOperatorJob(Cluster cluster, ExternalRef ref, Attempt at, ObjectNode created)
      throws InterruptedException {
    var types = new LinkedHashMap<String, Integer>();
    replicaSpecs(created)
        .properties()
        .forEach(e -> types.put(e.getKey(), e.getValue().path("replicas").asInt(1)));
    var operator = cluster.operator();
    operator.created(at);
    operator.running(at, types);
    var running = awaitStatus(cluster, ref, s -> s.phase() == BackendPhase.RUNNING, "running");
    assertThat(running.startedAt()).isNotNull();

    var pods = operator.pods(at, types);
    for (var pod : pods) {
      var container =
          cluster
              .server()
              .client()
              .pods()
              .inNamespace(at.namespace())
              .withName(pod)
              .get()
              .getSpec()
              .getContainers()
              .get(0)
              .getName();
      kubelet(cluster, at, pod, container);
    }
    assertThat(all(cluster.backend().logs(ref, LogQuery.ALL))).hasSize(pods.size());

    operator.succeeded(at);
    var done = awaitStatus(cluster, ref, s -> s.phase() == BackendPhase.SUCCEEDED, "succeeded");
    assertThat(done.endedAt()).isNotNull();
  }

  private void runTrainJob(Cluster cluster, ExternalRef ref, Attempt at, int nodes)
      throws InterruptedException {
    var trainer = cluster.trainer();
    trainer.running(at);
    awaitStatus(cluster, ref, s -> s.phase() == BackendPhase.RUNNING, "running");
    var pods = trainer.pods(at, nodes);
    pods.forEach(pod -> kubelet(cluster, at, pod, "node"));
    assertThat(all(cluster.backend().logs(ref, LogQuery.ALL))).hasSize(nodes);
    trainer.complete(at);
    var done = awaitStatus(cluster, ref, s -> s.phase() == BackendPhase.SUCCEEDED, "succeeded");
    assertThat(done.endedAt()).isNotNull();
  }

  /**
   * {@code live} less what the backend adds to the golden's rendered document, each addition
   * checked before it is taken out (see the class's Javadoc).
   */
  private static ObjectNode withoutBackendAdditions(
      ObjectNode live, BackendJob job, Map<String, NodePool> pools, ObjectNode rendered) {
    var metadata = live.path("metadata");
    assertThat(metadata.path("name").asText()).isEqualTo(job.objectName());
    var labels = map(metadata.path("labels"));
    assertThat(labels)
        .containsEntry(KubeflowJobRenderer.JOB_ID_LABEL, job.jobId())
        .containsEntry(KubeflowJobRenderer.TEAM_LABEL, TEAM)
        .containsEntry(
            KubeflowJobRenderer.SPEC_HASH_LABEL, KubeflowJobRenderer.specHashLabel(SPEC_HASH));
    labels.remove(KubeflowJobRenderer.JOB_ID_LABEL);
    labels.remove(KubeflowJobRenderer.TEAM_LABEL);
    labels.remove(KubeflowJobRenderer.SPEC_HASH_LABEL);
    assertThat(labels).as("the golden's labels").isEqualTo(map(rendered.at("/metadata/labels")));
    var annotations = map(metadata.path("annotations"));
    assertThat(annotations).containsKeys(PodCleanup.CLEAN_POD_POLICY, PodCleanup.TTL_SECONDS);
    annotations.remove(PodCleanup.CLEAN_POD_POLICY);
    annotations.remove(PodCleanup.TTL_SECONDS);
    assertThat(annotations)
        .as("the golden's annotations")
        .isEqualTo(map(rendered.at("/metadata/annotations")));

    var object = withoutMetadata(live);
    object.remove("status");
    var spec = (ObjectNode) object.path("spec");
    if (spec.path("runPolicy") instanceof ObjectNode runPolicy) {
      // The cleanup's merge patch removes a field with null, which the CRUD server stores as a null
      // (an API server removes the field); an empty runPolicy is then what was not there.
      var nulls = new ArrayList<String>();
      runPolicy
          .properties()
          .forEach(
              e -> {
                if (e.getValue().isNull()) {
                  nulls.add(e.getKey());
                }
              });
      runPolicy.remove(nulls);
      if (runPolicy.isEmpty()) {
        spec.remove("runPolicy");
      }
    }
    var goldenSpecs = replicaSpecs(rendered);
    replicaSpecs(object)
        .properties()
        .forEach(
            e -> {
              var pool = pools.get(e.getKey().toLowerCase(Locale.ROOT));
              assertThat(pool).as("the pool of " + e.getKey()).isNotNull();
              var pod = (ObjectNode) e.getValue().path("template").path("spec");
              var golden = goldenSpecs.path(e.getKey()).path("template").path("spec");
              poolSelector(pod, golden, pool);
              poolTolerations(pod, golden, pool);
            });
    return object;
  }

  private static void poolSelector(ObjectNode pod, JsonNode golden, NodePool pool) {
    var selector = (ObjectNode) pod.path("nodeSelector");
    pool.labels()
        .forEach(
            (key, value) -> {
              assertThat(selector.path(key).asText()).as("nodeSelector " + key).isEqualTo(value);
              if (!golden.path("nodeSelector").has(key)) {
                selector.remove(key);
              }
            });
    if (selector.isEmpty()) {
      pod.remove("nodeSelector");
    }
  }

  private static void poolTolerations(ObjectNode pod, JsonNode golden, NodePool pool) {
    var kept = JSON.createArrayNode();
    var tolerations = pod.path("tolerations");
    var added =
        pool.taints().stream().<JsonNode>map(t -> JSON.valueToTree(t.toleration())).toList();
    for (var toleration : added) {
      assertThat(tolerations).as("the pool's toleration").contains(toleration);
    }
    for (var toleration : tolerations) {
      if (!added.contains(toleration) || contains(golden.path("tolerations"), toleration)) {
        kept.add(toleration);
      }
    }
    if (kept.isEmpty()) {
      pod.remove("tolerations");
    } else {
      pod.set("tolerations", kept);
    }
  }

  private static boolean contains(JsonNode array, JsonNode element) {
    for (var e : array) {
      if (e.equals(element)) {
        return true;
      }
    }
    return false;
  }

  /** The nodeSelector entries the document's pod templates pin, over all replica types. */
  private static Map<String, String> pinnedNodeSelector(JsonNode document) {
    var pinned = new HashMap<String, String>();
    document
        .path("spec")
        .forEach(
            specs ->
                specs.forEach(
                    replica ->
                        replica
                            .path("template")
                            .path("spec")
                            .path("nodeSelector")
                            .properties()
                            .forEach(e -> pinned.put(e.getKey(), e.getValue().asText()))));
    return pinned;
  }

  private static boolean allows(Map<String, NodePool> pools, Map<String, String> pinned) {
    return pools.values().stream()
        .allMatch(
            pool ->
                pinned.entrySet().stream()
                    .allMatch(
                        e -> {
                          var label = pool.labels().get(e.getKey());
                          return label == null || label.equals(e.getValue());
                        }));
  }

  /** The pool each role of {@code placement} is on, found as the renderer finds it. */
  private static Map<String, NodePool> poolsByRole(Cluster cluster, Placement placement) {
    var byRole = new HashMap<String, NodePool>();
    for (var line : placement.lines()) {
      var pool =
          cluster.pools().stream()
              .filter(
                  p ->
                      p.instanceType().equals(line.instanceType())
                          && p.isSpot() == placement.spot())
              .findFirst()
              .orElseThrow();
      line.roles().forEach(role -> byRole.put(role, pool));
    }
    return byRole;
  }

  /**
   * Role name (the replica type in lower case) → replicas, as the object on the server has them.
   */
  private static Map<String, Integer> replicaCounts(JsonNode object) {
    var counts = new HashMap<String, Integer>();
    replicaSpecs(object)
        .properties()
        .forEach(
            e ->
                counts.put(
                    e.getKey().toLowerCase(Locale.ROOT), e.getValue().path("replicas").asInt(1)));
    return counts;
  }

  /** The kind's {@code <framework>ReplicaSpecs}. */
  private static JsonNode replicaSpecs(JsonNode object) {
    for (var field : object.path("spec").properties()) {
      if (field.getKey().endsWith("ReplicaSpecs")) {
        return field.getValue();
      }
    }
    throw new AssertionError("no replica specs in " + object);
  }

  private static Map<String, String> map(JsonNode object) {
    var map = new LinkedHashMap<String, String>();
    object.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
    return map;
  }

  private static ObjectNode withoutMetadata(ObjectNode object) {
    var copy = object.deepCopy();
    copy.remove("metadata");
    return copy;
  }

  private static void kubelet(Cluster cluster, Attempt at, String pod, String container) {
    var path =
        "/api/v1/namespaces/"
            + at.namespace()
            + "/pods/"
            + pod
            + "/log?pretty=false&container="
            + container
            + "&timestamps=true";
    cluster
        .server()
        .expect()
        .get()
        .withPath(path)
        .andReturn(200, "2026-01-05T10:00:00Z " + pod + " up\n")
        .always();
  }

  private static BackendStatus awaitStatus(
      Cluster cluster, ExternalRef ref, Predicate<BackendStatus> wanted, String what) {
    var last = new BackendStatus[1];
    CrudServerTest.await(
        () -> {
          last[0] = cluster.backend().status(ref);
          return wanted.test(last[0]);
        },
        what);
    return last[0];
  }

  private static List<LogLine> all(LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    stream.close();
    return lines;
  }

  private static ObjectNode tree(Object resource) throws IOException {
    return (ObjectNode) JSON.readTree(Serialization.asJson(resource));
  }

  private static byte[] resource(String name) {
    try (InputStream in = GoldenCorpusIT.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new AssertionError(
            name + " is not on the class path (trainyard-kubeflow's test jar)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
