package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.kubeflow.KubeflowConversionException;
import io.trainyard.kubeflow.KubeflowKind;
import io.trainyard.kubeflow.KubeflowWriter;
import io.trainyard.kubeflow.KubeflowWriter.RenderOptions;
import io.trainyard.kubeflow.PodAdditions;
import io.trainyard.kubeflow.TrainJobWriter;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.ObjectMeta;
import io.trainyard.spi.spec.TrainingJob;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an attempt looks like on the cluster, as pure functions of the job and its placement ({@code
 * desired(job) → resource}; applying it is {@link JobSubmitter}'s business):
 *
 * <ul>
 *   <li>the job object, named {@code ty-<job id>-a<attempt>} in the team's namespace, labelled with
 *       job id, team and spec hash (and Kueue's queue when configured), each role's pods pinned to
 *       the pool its placement chose (the pool's labels as node selector, its taints tolerated):
 *       with flavor {@code kubeflow-v1} the framework's v1 job, rendered by {@link KubeflowWriter};
 *       with {@code trainer-v2} a {@code TrainJob} on the configured {@code
 *       ClusterTrainingRuntime}, rendered by {@link TrainJobWriter}, the pool's selector and
 *       tolerations in its {@code podTemplateOverrides} (every node on one pool);
 *   <li>the job's DeepSpeed config, when it has one, as a ConfigMap {@code <name>-deepspeed}
 *       mounted in every replica at {@value #DEEPSPEED_DIR}, its path in {@code DEEPSPEED_CONFIG},
 *       owned by the job object so it goes when the job goes;
 *   <li>pods kept when the job ends, until the gateway has archived their logs ({@link
 *       PodCleanup}).
 * </ul>
 */
final class KubeflowJobRenderer {
  /** The job setting carrying the team's priority cap (see {@link #priorityClass}). */
  static final String MAX_PRIORITY_SETTING = "maxPriority";

  static final String JOB_ID_LABEL = "trainyard.io/job-id";
  static final String TEAM_LABEL = "trainyard.io/team";
  static final String SPEC_HASH_LABEL = "trainyard.io/spec-hash";
  static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
  static final String DEEPSPEED_DIR = "/etc/trainyard/deepspeed";
  static final String DEEPSPEED_KEY = "ds_config.json";
  static final String DEEPSPEED_FILE = DEEPSPEED_DIR + "/" + DEEPSPEED_KEY;
  static final String DEEPSPEED_VOLUME = "trainyard-deepspeed";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LABEL_MAX = 63;

  private final ClusterSettings cluster;

  KubeflowJobRenderer(ClusterSettings cluster) {
    this.cluster = cluster;
  }

  /**
   * The job object for {@code job}'s attempt on {@code placement}.
   *
   * @throws io.trainyard.kubeflow.KubeflowConversionException the spec cannot be rendered
   * @throws PoolGoneException the placement names a pool this cluster no longer has
   */
  GenericKubernetesResource desired(BackendJob job, Placement placement) {
    var pools = poolsByRole(placement);
    var files = deepspeedFiles(job);
    var pods = new HashMap<String, PodAdditions>();
    for (var role : job.spec().roleSpecs()) {
      var pool = pools.get(role.name());
      if (pool == null) {
        throw new PoolGoneException("the placement puts no node pool under role " + role.name());
      }
      var onPool =
          new PodAdditions(
              pool.labels(),
              pool.taints().stream().map(NodePool.Taint::toleration).toList(),
              null,
              null,
              null);
      pods.put(role.name(), onPool.plus(files));
    }
    var spec =
        new TrainingJob(
            TrainingJob.API_VERSION,
            TrainingJob.KIND,
            new ObjectMeta(job.name(), job.team(), Map.of()),
            job.spec());
    ObjectNode tree;
    if (cluster.rendersTrainJobs()) {
      // A TrainJob's cleanup is its runtime's: its pods stay until the object goes.
      tree = trainJob(job, spec, pools, pods);
    } else {
      tree =
          new KubeflowWriter()
              .write(
                  spec,
                  new RenderOptions(job.objectName(), namespace(job), labels(job), pods),
                  cluster.mpiOperator());
      PodCleanup.holdPods(tree);
      priorityClass(job).ifPresent(name -> putPriorityClass(tree, name));
    }
    GatewaySecret.reference(tree, job);
    try {
      return Serialization.unmarshal(
          JSON.writeValueAsString(tree), GenericKubernetesResource.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a rendered job is always JSON", e);
    }
  }

  /** A TrainJob's nodes are alike and share one pod template: the placement must use one pool. */
  private ObjectNode trainJob(
      BackendJob job,
      TrainingJob spec,
      Map<String, NodePool> pools,
      Map<String, PodAdditions> pods) {
    if (new HashSet<>(pools.values()).size() > 1) {
      throw new KubeflowConversionException(
          List.of(
              new FieldError(
                  "placement",
                  "a TrainJob runs every node on one pool; this placement uses several")));
    }
    var first = job.spec().roleSpecs().get(0).name();
    var options =
        new TrainJobWriter.Options(
            job.objectName(),
            namespace(job),
            labels(job),
            cluster.trainerRuntime(),
            pods.get(first),
            cluster.effectivePodPatches());
    var tree = new TrainJobWriter().write(spec, options);
    objectLabels(job.spec(), tree);
    return tree;
  }

  /**
   * The spec's labels and annotations for the job object ({@code spec.kubernetes.jobLabels}, {@code
   * jobAnnotations}) beside those already rendered, which are the gateway's and win on a clash.
   */
  private static void objectLabels(JobSpec spec, ObjectNode tree) {
    var meta = tree.withObject("metadata");
    if (!spec.jobLabels().isEmpty()) {
      var labels = meta.withObject("labels");
      spec.jobLabels()
          .forEach(
              (k, v) -> {
                if (!labels.has(k)) {
                  labels.put(k, v);
                }
              });
    }
    if (!spec.jobAnnotations().isEmpty()) {
      var annotations = meta.withObject("annotations");
      spec.jobAnnotations()
          .forEach(
              (k, v) -> {
                if (!annotations.has(k)) {
                  annotations.put(k, v);
                }
              });
    }
  }

  /** The Secret of the gateway's secret environment of {@code job} ({@link GatewaySecret}). */
  Optional<io.fabric8.kubernetes.api.model.Secret> desiredSecret(BackendJob job) {
    return GatewaySecret.desired(job, labels(job));
  }

  /** The DeepSpeed ConfigMap of {@code job}, owned by its job object; empty without a config. */
  /**
   * The PriorityClass the cluster block maps the job's queue priority to, unless the spec names one
   * itself ({@code spec.kubernetes.scheduling.priorityClass}). The priority is {@code
   * spec.priority} capped by the team's {@code maxPriority}, which the gateway passes in the job's
   * settings.
   */
  Optional<String> priorityClass(BackendJob job) {
    var k8s = job.spec().kubernetes();
    if (k8s != null && k8s.scheduling() != null && k8s.scheduling().priorityClass() != null) {
      return Optional.empty();
    }
    var priority = job.spec().effectivePriority();
    var cap = job.settings().get(MAX_PRIORITY_SETTING);
    if (cap != null) {
      priority = Math.min(priority, Integer.parseInt(cap));
    }
    return cluster.priorityClassFor(priority);
  }

  /** Sets {@code priorityClassName} on every pod template that does not set one already. */
  private static void putPriorityClass(com.fasterxml.jackson.databind.JsonNode node, String name) {
    if (node instanceof ObjectNode object) {
      var template = object.get("template");
      if (template != null
          && template.get("spec") instanceof ObjectNode podSpec
          && podSpec.has("containers")
          && !podSpec.has("priorityClassName")) {
        podSpec.put("priorityClassName", name);
      }
    }
    if (node != null && node.isContainerNode()) {
      node.forEach(child -> putPriorityClass(child, name));
    }
  }

  Optional<ConfigMap> desiredConfig(BackendJob job, HasMetadata owner) {
    if (job.spec().deepspeed().isEmpty()) {
      return Optional.empty();
    }
    String json;
    try {
      json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(job.spec().deepspeed());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a spec's deepspeed map is always JSON", e);
    }
    return Optional.of(
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(configName(job))
            .withNamespace(namespace(job))
            .withLabels(labels(job))
            .addNewOwnerReference()
            .withApiVersion(owner.getApiVersion())
            .withKind(owner.getKind())
            .withName(owner.getMetadata().getName())
            .withUid(owner.getMetadata().getUid())
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .addToData(DEEPSPEED_KEY, json)
            .build());
  }

  static String configName(BackendJob job) {
    return job.objectName() + "-deepspeed";
  }

  /** The team's namespace on this cluster (the gateway's team settings), else the team's name. */
  static String namespace(BackendJob job) {
    var ns = job.settings().get("namespace");
    if (ns != null && !ns.isBlank()) {
      return ns;
    }
    // A namespace is a DNS-1123 label: lower case, digits and '-'.
    var name =
        labelValue(job.team()).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    return name.replaceAll("^-+", "").replaceAll("-+$", "");
  }

  /** The kind of object {@code job}'s attempts are on this cluster. */
  JobKind kind(BackendJob job) {
    return cluster.rendersTrainJobs()
        ? JobKind.TRAIN_JOB
        : JobKind.of(KubeflowKind.of(job.spec().framework()), cluster.mpiOperator());
  }

  Map<String, String> labels(BackendJob job) {
    var labels = new LinkedHashMap<String, String>();
    labels.put(JOB_ID_LABEL, job.jobId());
    labels.put(TEAM_LABEL, labelValue(job.team()));
    labels.put(SPEC_HASH_LABEL, specHashLabel(job.specHash()));
    if (cluster.kueueQueue() != null) {
      labels.put(KUEUE_QUEUE_LABEL, cluster.kueueQueue());
    }
    return labels;
  }

  /** A SHA-256 in hex is 64 characters, one more than a label value may have. */
  static String specHashLabel(String specHash) {
    return specHash.length() > LABEL_MAX ? specHash.substring(0, LABEL_MAX) : specHash;
  }

  /** {@code value} made a legal label value: other characters become '-', at most 63. */
  static String labelValue(String value) {
    if (value == null) {
      return "";
    }
    var legal = value.replaceAll("[^A-Za-z0-9._-]", "-");
    legal = legal.length() > LABEL_MAX ? legal.substring(0, LABEL_MAX) : legal;
    return legal.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
  }

  private Map<String, NodePool> poolsByRole(Placement placement) {
    var byRole = new HashMap<String, NodePool>();
    for (var line : placement.lines()) {
      var pool =
          cluster.nodePools().stream()
              // By name when the line has one; a placement stored before lines named their pool
              // has only the type (unique per spot-ness, ClusterSettings checks).
              .filter(
                  p ->
                      line.pool() != null
                          ? p.name().equals(line.pool())
                              && p.instanceType().equals(line.instanceType())
                          : p.instanceType().equals(line.instanceType()))
              .filter(p -> p.isSpot() == placement.spot())
              .findFirst()
              .orElseThrow(
                  () ->
                      new PoolGoneException(
                          cluster.backendId()
                              + " has no "
                              + (placement.spot() ? "spot" : "on-demand")
                              + " node pool of "
                              + line.instanceType()
                              + " any more"));
      line.roles().forEach(role -> byRole.put(role, pool));
    }
    return byRole;
  }

  private static PodAdditions deepspeedFiles(BackendJob job) {
    if (job.spec().deepspeed().isEmpty()) {
      return PodAdditions.NONE;
    }
    return new PodAdditions(
        null,
        null,
        List.of(Map.of("name", DEEPSPEED_VOLUME, "configMap", Map.of("name", configName(job)))),
        List.of(Map.of("name", DEEPSPEED_VOLUME, "mountPath", DEEPSPEED_DIR, "readOnly", true)),
        Map.of("DEEPSPEED_CONFIG", DEEPSPEED_FILE));
  }

  /** The placement names a pool the cluster's configuration no longer has. */
  static final class PoolGoneException extends RuntimeException {
    PoolGoneException(String message) {
      super(message);
    }
  }
}
