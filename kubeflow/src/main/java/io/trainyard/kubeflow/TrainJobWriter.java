package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.TrainingJob;
import io.trainyard.spi.spec.Volume;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Renders a Trainyard spec as a Kubeflow Trainer {@code TrainJob} ({@code
 * trainer.kubeflow.org/v1alpha1}) that runs on a named {@code ClusterTrainingRuntime}. Stateless
 * and thread-safe; the result is a fresh tree the caller may change.
 *
 * <p>A TrainJob is one group of identical nodes: every replica of every role becomes one of {@code
 * trainer.numNodes} nodes (a PyTorchJob's or XGBoostJob's master is node 0, its rank 0), with the
 * spec's {@code image}, {@code command}, {@code args}, {@code env} and {@code secretEnv} (as {@code
 * secretKeyRef}s), {@code resources} as {@code trainer.resourcesPerNode.limits} and {@code
 * processesPerReplica} as {@code numProcPerNode}. Pod-template fields, the spec's PVC {@code
 * volumes} and what the caller adds ({@link PodAdditions}) go to one {@code podTemplateOverrides}
 * entry targeting the runtime's {@value #NODE} job, its container {@value #NODE} getting the volume
 * mounts and security context; added env goes to {@code trainer.env}, the only place a TrainJob may
 * set the trainer container's variables. {@code spec.kubernetes.jobLabels} and {@code
 * jobAnnotations} go to the object's {@code metadata}, the pod template's labels and annotations to
 * the override's {@code metadata}, as {@link KubeflowWriter} does for v1 jobs.
 *
 * <p>PyTorch, XGBoost and JAX jobs are rendered (a JAX job's workers, or a master and its workers,
 * are the nodes); the runtime is the one a TrainJob document named, else Trainer's built-in one for
 * xgboost and jax, else the cluster's. An image equal to the built-in runtime's own is left out, so
 * the cluster's runtime decides, as it did for the document read without one.
 *
 * <p>What a TrainJob cannot say is refused by {@link #unsupported}; as with {@link KubeflowWriter},
 * {@code estimatedHours}, {@code placement}, {@code compliance}, {@code inputs}, {@code output},
 * {@code checkpoint}, {@code deepspeed} and GPU types are not rendered.
 *
 * <p>Field names and shapes follow {@code kubeflow/trainer} {@code
 * pkg/apis/trainer/v1alpha1/trainjob_types.go} at commit {@code
 * 9b1edb2f5e6f0d7fb867ee74a1a8e97d2f952b86}, where pod patches are {@code podTemplateOverrides}
 * (earlier releases called them {@code podSpecOverrides}, later ones {@code runtimePatches}).
 */
public final class TrainJobWriter {
  public static final String API_VERSION = "trainer.kubeflow.org/v1alpha1";
  public static final String KIND = "TrainJob";
  public static final String RUNTIME_API_GROUP = "trainer.kubeflow.org";
  public static final String RUNTIME_KIND = "ClusterTrainingRuntime";

  /** The runtime's trainer job, and its container, as Kubeflow Trainer's runtimes name them. */
  public static final String NODE = "node";

  /**
   * What the caller decides about the object rather than the spec.
   *
   * @param name the object's name; null = the job's {@code metadata.name}
   * @param namespace the object's namespace; null = none written
   * @param labels added to the job's labels, replacing any of the same key
   * @param runtime the {@code ClusterTrainingRuntime} to run on when the job names none (a job read
   *     from a TrainJob keeps its own {@code runtimeRef}, which wins); required
   * @param nodes what to add to every node's pod (one pool, one set of files)
   * @param podPatches the field the cluster's Trainer reads pod patches from, one of {@link
   *     #POD_PATCH_FIELDS}; null = {@value #DEFAULT_POD_PATCHES}, the pinned CRD's
   */
  public record Options(
      String name,
      String namespace,
      Map<String, String> labels,
      String runtime,
      PodAdditions nodes,
      String podPatches) {
    public Options {
      Objects.requireNonNull(runtime, "runtime");
      labels = labels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
      nodes = nodes == null ? PodAdditions.NONE : nodes;
      podPatches = podPatches == null ? DEFAULT_POD_PATCHES : podPatches;
      TrainJobPodPatches.Style.of(podPatches);
    }

    public Options(
        String name,
        String namespace,
        Map<String, String> labels,
        String runtime,
        PodAdditions nodes) {
      this(name, namespace, labels, runtime, nodes, null);
    }
  }

  /**
   * The names Kubeflow Trainer has given a TrainJob's pod patches: {@code podSpecOverrides} (v2.0),
   * {@code podTemplateOverrides} (v2.1), {@code runtimePatches} (v2.2 and later).
   */
  public static final List<String> POD_PATCH_FIELDS = TrainJobPodPatches.FIELDS;

  /** What the pinned CRD (commit {@code 9b1edb2f}) reads. */
  public static final String DEFAULT_POD_PATCHES = "podTemplateOverrides";

  /**
   * The runtime {@code job} runs on with {@code defaultRuntime} as the cluster's: the one it names
   * in {@code spec.kubernetes.trainJob.runtimeRef} (kept from a TrainJob document), else Trainer's
   * built-in one for an xgboost or jax job ({@link TrainerRuntimes#defaultFor}), else the default.
   */
  public static String runtimeOf(JobSpec spec, String defaultRuntime) {
    var ref = spec.kubernetes() == null ? null : spec.kubernetes().trainJob().get("runtimeRef");
    return ref instanceof Map<?, ?> m && m.get("name") instanceof String name
        ? name
        : TrainerRuntimes.defaultFor(spec.framework()).orElse(defaultRuntime);
  }

  /**
   * What a valid spec asks for that a TrainJob cannot carry, each naming the spec's field; empty
   * when {@link #write} can render it. A Kubernetes backend of flavor {@code trainer-v2} rejects
   * such a job with these reasons.
   */
  public static List<FieldError> unsupported(JobSpec spec) {
    return unsupported(spec, DEFAULT_POD_PATCHES);
  }

  /**
   * {@link #unsupported(JobSpec)} on a cluster whose Trainer reads pod patches at {@code field}.
   */
  public static List<FieldError> unsupported(JobSpec spec, String podPatches) {
    var style = TrainJobPodPatches.Style.of(podPatches);
    var result = new java.util.ArrayList<>(TrainJobLimits.of(spec));
    if (style == TrainJobPodPatches.Style.RUNTIME_PATCHES) {
      // Trainer v2.2 (the runtimePatches release, commit 466c97a8) added activeDeadlineSeconds.
      result.removeIf(e -> e.field().equals("spec.maxRuntime"));
    }
    var kept = kept(spec).get("podTemplateOverrides");
    if (kept instanceof List<?> list) {
      result.addAll(
          TrainJobPodPatches.unsupported(
              list, "spec.kubernetes.trainJob.podTemplateOverrides", style));
    }
    if (style == TrainJobPodPatches.Style.POD_SPEC_OVERRIDES && !spec.roleSpecs().isEmpty()) {
      result.addAll(
          TrainJobPodPatches.unsupportedInPodTemplate(
              spec.roleSpecs().get(0).kubernetes().podTemplate(), "spec.kubernetes.podTemplate"));
    }
    return result;
  }

  private static Map<String, Object> kept(JobSpec spec) {
    return spec.kubernetes() == null ? Map.of() : spec.kubernetes().trainJob();
  }

  /**
   * The TrainJob for a valid {@code job}.
   *
   * @throws KubeflowConversionException when the spec uses something a TrainJob cannot express
   */
  public ObjectNode write(TrainingJob job, Options options) {
    var spec = job.spec();
    var problems = unsupported(spec, options.podPatches());
    if (!problems.isEmpty()) {
      throw new KubeflowConversionException(problems);
    }
    // Every role runs alike (checked above): the first stands for all.
    var node = spec.roleSpecs().get(0);
    var root = JsonNodeFactory.instance.objectNode();
    root.put("apiVersion", API_VERSION);
    root.put("kind", KIND);
    root.set("metadata", metadata(job, options));
    var body = root.putObject("spec");
    var kept = kept(spec);
    var runtime = runtimeOf(spec, options.runtime());
    if (kept.get("runtimeRef") instanceof Map<?, ?> ref) {
      body.set("runtimeRef", PodTemplateTrees.toTree(cast(ref)));
    } else {
      body.putObject("runtimeRef")
          .put("name", runtime)
          .put("apiGroup", RUNTIME_API_GROUP)
          .put("kind", RUNTIME_KIND);
    }
    if (kept.get("initializer") instanceof Map<?, ?> initializer) {
      body.set("initializer", PodTemplateTrees.toTree(cast(initializer)));
    }
    var podTemplate = PodTemplateTrees.toTree(node.kubernetes().podTemplate());
    var carried = frameworkContainer(podTemplate, KubeflowKind.of(spec.framework()));
    var trainer = trainer(spec, node, carried, runtime);
    body.set("trainer", trainer);
    var override = override(spec.volumes(), podTemplate, carried, options.nodes());
    options
        .nodes()
        .env()
        .forEach(
            (name, value) ->
                trainer.withArray("env").addObject().put("name", name).put("value", value));
    var style = TrainJobPodPatches.Style.of(options.podPatches());
    // Trainer v2.2 moved spec.labels and spec.annotations (the JobSet's) into runtime patches.
    var jobSet = JsonNodeFactory.instance.objectNode();
    for (var field : List.of("labels", "annotations")) {
      if (kept.get(field) instanceof Map<?, ?> map) {
        jobSet.set(field, PodTemplateTrees.toTree(cast(map)));
      }
    }
    if (style != TrainJobPodPatches.Style.RUNTIME_PATCHES) {
      body.setAll(jobSet);
    }
    var patches = new java.util.ArrayList<ObjectNode>();
    if (override != null) {
      patches.add(override);
    }
    if (kept.get("podTemplateOverrides") instanceof List<?> list) {
      list.forEach(e -> patches.add(PodTemplateTrees.toTree(cast((Map<?, ?>) e))));
    }
    var written = TrainJobPodPatches.write(patches, style, jobSet);
    if (!written.isEmpty()) {
      body.set(style.field(), written);
    }
    if (style == TrainJobPodPatches.Style.RUNTIME_PATCHES) {
      spec.maxRuntimeDuration().ifPresent(d -> body.put("activeDeadlineSeconds", d.toSeconds()));
    }
    if (kept.get("managedBy") instanceof String managedBy) {
      body.put("managedBy", managedBy);
    }
    return root;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  private static ObjectNode metadata(TrainingJob job, Options options) {
    var meta = JsonNodeFactory.instance.objectNode();
    if (options.name() != null || job.metadata().name() != null) {
      meta.put("name", options.name() != null ? options.name() : job.metadata().name());
    } else {
      meta.put("generateName", job.metadata().generateName());
    }
    if (options.namespace() != null) {
      meta.put("namespace", options.namespace());
    }
    // As KubeflowWriter: the object's own labels (spec.kubernetes.jobLabels; metadata.labels are
    // the Trainyard job's), then the caller's, which win on a clash.
    var labels = new LinkedHashMap<>(job.spec().jobLabels());
    labels.putAll(options.labels());
    if (!labels.isEmpty()) {
      var node = meta.putObject("labels");
      labels.forEach(node::put);
    }
    if (!job.spec().jobAnnotations().isEmpty()) {
      var node = meta.putObject("annotations");
      job.spec().jobAnnotations().forEach(node::put);
    }
    return meta;
  }

  private static ObjectNode trainer(
      JobSpec spec, RoleSpec node, ObjectNode carried, String runtime) {
    var trainer = JsonNodeFactory.instance.objectNode();
    // The built-in runtime's own image is left to the runtime, as a document read without one
    // had it: the cluster's runtime of that name decides, as Trainer would.
    if (!TrainerRuntimes.builtInImage(runtime).orElse("").equals(node.image())) {
      trainer.put("image", node.image());
    }
    if (!node.command().isEmpty()) {
      node.command().forEach(trainer.putArray("command")::add);
    }
    if (!node.args().isEmpty()) {
      node.args().forEach(trainer.putArray("args")::add);
    }
    if (!node.env().isEmpty() || !node.secretEnv().isEmpty()) {
      var env = trainer.putArray("env");
      node.env().forEach((name, value) -> env.addObject().put("name", name).put("value", value));
      node.secretEnv()
          .forEach(
              (name, ref) ->
                  env.addObject()
                      .put("name", name)
                      .putObject("valueFrom")
                      .putObject("secretKeyRef")
                      .put("name", ref.secret())
                      .put("key", ref.key()));
    }
    trainer.put("numNodes", spec.totalReplicas());
    // A resources block kept in the pod template is the document's own (the spec's values could
    // not say it); it wins, as in KubeflowWriter.
    JsonNode resources = carried != null ? carried.remove("resources") : null;
    if (resources == null) {
      resources = ContainerResources.write(node.resources());
    }
    if (resources != null) {
      trainer.set("resourcesPerNode", resources);
    }
    if (spec.processesPerReplica() != null) {
      trainer.put("numProcPerNode", spec.processesPerReplica());
    }
    return trainer;
  }

  /** Takes the framework's container entry out of the template's containers; null if none. */
  private static ObjectNode frameworkContainer(ObjectNode podTemplate, KubeflowKind kind) {
    var containers = (ArrayNode) podTemplate.remove("containers");
    if (containers == null) {
      return null;
    }
    for (var c : containers) {
      if (kind.containerName().equals(c.path("name").asText(null))) {
        return (ObjectNode) c.deepCopy();
      }
    }
    return null;
  }

  /** The one podTemplateOverrides entry for the node job, or null when it would say nothing. */
  private static ObjectNode override(
      List<Volume> volumes, ObjectNode podTemplate, ObjectNode carried, PodAdditions additions) {
    var metadata = (ObjectNode) podTemplate.remove("metadata");
    var podSpec = podTemplate;
    var main = JsonNodeFactory.instance.objectNode();
    main.put("name", NODE);
    if (carried != null) {
      carried.remove("name");
      main.setAll(carried);
    }
    for (var v : volumes) {
      podSpec
          .withArray("volumes")
          .addObject()
          .put("name", v.name())
          .putObject("persistentVolumeClaim")
          .put("claimName", v.claim());
      main.withArray("volumeMounts")
          .addObject()
          .put("name", v.name())
          .put("mountPath", v.mountPath());
    }
    // The env of the node container goes to trainer.env: the override may not set it.
    var withoutEnv =
        new PodAdditions(
            additions.nodeSelector(),
            additions.tolerations(),
            additions.volumes(),
            additions.volumeMounts(),
            null);
    PodAdditionsMerge.apply(withoutEnv, podSpec, main);
    if (main.size() > 1) {
      podSpec.putArray("containers").add(main);
    }
    if (podSpec.isEmpty() && (metadata == null || metadata.isEmpty())) {
      return null;
    }
    var override = JsonNodeFactory.instance.objectNode();
    override.putArray("targetJobs").addObject().put("name", NODE);
    if (metadata != null && !metadata.isEmpty()) {
      override.set("metadata", metadata);
    }
    if (!podSpec.isEmpty()) {
      override.set("spec", podSpec);
    }
    return override;
  }
}
