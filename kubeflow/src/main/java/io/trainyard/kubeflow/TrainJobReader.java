package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOptions;
import io.trainyard.spi.spec.TrainingJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts a Kubeflow Trainer {@code TrainJob} ({@code trainer.kubeflow.org/v1alpha1}) into a
 * Trainyard {@link TrainingJob}: the inverse of {@link TrainJobWriter}, so that {@code
 * read(write(job))} gives {@code job} back for every job this reader produced. Every field is
 * carried over, adjusted with a warning, or refused with its full path. Stateless and thread-safe.
 *
 * <p>The runtime named in {@code spec.runtimeRef.name} decides the framework ({@link
 * TrainerRuntimes}): Trainer's built-in runtimes, plus those the caller passes (what the gateway's
 * {@code trainer-v2} clusters declare). A name neither knows is refused at {@code
 * spec.runtimeRef.name}, listing the known ones. The {@code trainer} is {@code trainer.numNodes}
 * alike nodes; on a torch or xgboost runtime node 0 is the rank-0 process, which is a PyTorchJob's
 * or XGBoostJob's one {@code master} and {@code numNodes - 1} {@code worker}s; on a jax runtime the
 * nodes are a JAXJob's {@code numNodes} {@code worker}s. Runtimes whose launcher is one of the
 * nodes (deepspeed, mlx: {@code mlPolicy.mpi.runLauncherAsNode}) or whose steps the spec cannot say
 * (torchtune's model and dataset initializers and {@code tune run}) are refused at {@code
 * spec.runtimeRef.name}.
 *
 * <p>The object's metadata is read as a {@code kubeflow.org} job's ({@link JobObjectMetadata}):
 * {@code generateName}, its {@code labels} and {@code annotations} to {@code
 * spec.kubernetes.jobLabels} / {@code jobAnnotations}; what {@code kubectl get -o yaml} adds is
 * left out with a warning ({@link ReadBackFields}); a template placeholder is refused ({@link
 * TemplatePlaceholders}). {@code suspend: true} is taken only beside a Kueue queue-name label, the
 * way Kueue's own examples write it: Kueue suspends the job at creation and admits it.
 *
 * <table>
 *   <caption>What maps to what</caption>
 *   <tr><td>{@code metadata.name}, {@code generateName}</td><td>the same</td></tr>
 *   <tr><td>{@code metadata.labels}, {@code annotations}</td>
 *       <td>{@code kubernetes.jobLabels}, {@code jobAnnotations}</td></tr>
 *   <tr><td>{@code trainer.image} (absent: the built-in runtime's), {@code command}, {@code args}
 *       </td><td>the same</td></tr>
 *   <tr><td>{@code trainer.env}</td><td>{@code env} / {@code secretEnv} (secretKeyRef)</td></tr>
 *   <tr><td>{@code trainer.numNodes}</td><td>{@code replicas: {master: 1, worker: n-1}} (jax:
 *       {@code {worker: n}})</td></tr>
 *   <tr><td>{@code trainer.resourcesPerNode}</td><td>{@code resources}</td></tr>
 *   <tr><td>{@code trainer.numProcPerNode}</td><td>{@code processesPerReplica}</td></tr>
 *   <tr><td>{@code activeDeadlineSeconds} (Trainer v2.2)</td><td>{@code maxRuntime}</td></tr>
 *   <tr><td>one pod patch targeting only the {@code node} job, fields a pod template has</td>
 *       <td>{@code kubernetes.podTemplate} (container {@code node} as the framework's, e.g. {@code
 *       pytorch})</td></tr>
 *   <tr><td>{@code runtimeRef}, {@code initializer}, {@code labels}, {@code annotations},
 *       {@code managedBy: kueue.x-k8s.io/multikueue}, other pod patches</td>
 *       <td>{@code kubernetes.trainJob}, as written (patches in the {@code podTemplateOverrides}
 *       form, see {@link TrainJobPodPatches})</td></tr>
 * </table>
 */
public final class TrainJobReader {
  public static final String API_VERSION = TrainJobWriter.API_VERSION;

  /** Trainer's default {@code managedBy}: its own controller. */
  static final String TRAINER_CONTROLLER = "trainer.kubeflow.org/trainjob-controller";

  static final String MULTIKUEUE = "kueue.x-k8s.io/multikueue";
  private static final Set<String> SPEC =
      Set.of(
          "runtimeRef",
          "initializer",
          "trainer",
          "labels",
          "annotations",
          "podSpecOverrides",
          "podTemplateOverrides",
          "runtimePatches",
          "suspend",
          "activeDeadlineSeconds",
          "managedBy");
  private static final Set<String> TRAINER =
      Set.of("image", "command", "args", "env", "numNodes", "resourcesPerNode", "numProcPerNode");

  /** The frameworks of the runtimes read: their nodes map to a v1 job's roles. */
  private static final Set<Framework> READ =
      Set.of(Framework.PYTORCH, Framework.XGBOOST, Framework.JAX);

  private final TrainerRuntimes runtimes;

  /** A reader that knows Trainer's built-in runtimes only. */
  public TrainJobReader() {
    this(TrainerRuntimes.builtIn());
  }

  /** A reader that knows {@code runtimes} (e.g. {@link TrainerRuntimes#with} what clusters add). */
  public TrainJobReader(TrainerRuntimes runtimes) {
    this.runtimes = runtimes;
  }

  /** True when {@code document} says it is a Kubeflow Trainer object, so {@link #read} takes it. */
  public static boolean isTrainJobDocument(JsonNode document) {
    return document != null
        && document
            .path("apiVersion")
            .asText("")
            .startsWith(TrainJobWriter.RUNTIME_API_GROUP + "/");
  }

  /**
   * The spec for {@code document} (as parsed by {@link KubeflowDocuments#parseSingle}).
   *
   * @throws KubeflowConversionException naming every field that cannot be carried
   */
  public Conversion read(JsonNode document) {
    var findings = new Findings();
    var nodes = new NodeReader(findings);
    if (document == null || !document.isObject()) {
      findings.refuse("", "must be a " + API_VERSION + " TrainJob document");
      findings.throwIfRefused();
    }
    var root = (ObjectNode) document;
    if (!API_VERSION.equals(nodes.text(root.get("apiVersion"), "apiVersion"))) {
      findings.refuse("apiVersion", "must be " + API_VERSION);
    }
    if (!TrainJobWriter.KIND.equals(nodes.text(root.get("kind"), "kind"))) {
      findings.refuse("kind", "must be " + TrainJobWriter.KIND);
    }
    findings.throwIfRefused();
    root = ReadBackFields.strip(root, findings);
    var placeholders = TemplatePlaceholders.find(root);
    if (!placeholders.isEmpty()) {
      throw new KubeflowConversionException(placeholders);
    }
    nodes.onlyKnown(
        root, "", Set.of("apiVersion", "kind", "metadata", "spec"), Map.of(), "a TrainJob");
    var object = JobObjectMetadata.read(root.get("metadata"), nodes);
    var spec = nodes.object(root.get("spec"), "spec");
    if (spec == null) {
      findings.refuse("spec", "is required");
    }
    var jobSpec = spec == null ? null : spec(spec, object, nodes);
    findings.throwIfRefused();
    return new Conversion(
        new TrainingJob(TrainingJob.API_VERSION, TrainingJob.KIND, object.meta(), jobSpec),
        findings.warnings());
  }

  private JobSpec spec(ObjectNode spec, JobObjectMetadata object, NodeReader nodes) {
    nodes.onlyKnown(spec, "spec", SPEC, Map.of(), "a TrainJob spec");
    var trainJob = new LinkedHashMap<String, Object>();
    var runtimeRef = runtimeRef(spec.get("runtimeRef"), nodes);
    if (runtimeRef == null) {
      return null;
    }
    trainJob.put("runtimeRef", PodTemplateTrees.toMap(runtimeRef.ref()));
    var framework = runtimeRef.runtime().framework();
    var container = KubeflowKind.of(framework).containerName();
    var trainer = nodes.object(spec.get("trainer"), "spec.trainer");
    if (trainer == null) {
      nodes
          .findings()
          .refuse(
              "spec.trainer",
              "is required: Trainyard runs the trainer.image you name on any backend and cannot"
                  + " know the runtime's default");
      return null;
    }
    nodes.onlyKnown(trainer, "spec.trainer", TRAINER, Map.of(), "a TrainJob's trainer");
    var podTemplate = JsonNodeFactory.instance.objectNode();
    var node = TrainJobNodes.trainer(trainer, podTemplate, nodes, runtimeRef.runtime(), container);
    var jobSet = JsonNodeFactory.instance.objectNode();
    var patches = patches(spec, nodes, jobSet);
    var kept = TrainJobNodes.podTemplateFromPatches(patches, podTemplate, container);
    kept(spec, trainJob, kept, jobSet, nodes);
    suspend(spec.get("suspend"), object.labels(), nodes);
    var deadline =
        nodes.longInteger(spec.get("activeDeadlineSeconds"), "spec.activeDeadlineSeconds", 1);
    if (nodes.findings().hasErrors()) {
      return null;
    }
    if (framework != Framework.PYTORCH && node.processes() != null && node.processes() > 1) {
      // Trainer's xgboost and jax plugins do not read it (only torch, mpi and flux do).
      nodes
          .findings()
          .refuse(
              "spec.trainer.numProcPerNode",
              "runtime "
                  + runtimeRef.runtime().name()
                  + " runs one process per node; ask for more nodes (numNodes) instead");
      return null;
    }
    var replicas = new LinkedHashMap<String, Integer>();
    if (framework == Framework.JAX) {
      replicas.put("worker", node.numNodes());
    } else {
      replicas.put("master", 1);
      if (node.numNodes() > 1) {
        replicas.put("worker", node.numNodes() - 1);
      }
    }
    var kubernetes =
        new KubernetesOptions(
            PodTemplateTrees.toMap(podTemplate),
            null,
            object.labels(),
            object.annotations(),
            trainJob);
    return new JobSpec(
        framework,
        node.image(),
        node.command(),
        node.args(),
        node.env(),
        node.secretEnv(),
        node.resources(),
        null,
        replicas,
        null,
        node.processes(),
        null,
        null,
        deadline == null ? null : deadline + "s",
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        kubernetes.isEmpty() ? null : kubernetes);
  }

  /** A runtime reference with the API server's defaults written out, and the runtime it names. */
  private record RuntimeRef(ObjectNode ref, TrainerRuntimes.Runtime runtime) {}

  /** The runtime the TrainJob names; null when refused. */
  private RuntimeRef runtimeRef(JsonNode node, NodeReader nodes) {
    var ref = nodes.object(node, "spec.runtimeRef");
    if (ref == null) {
      nodes.findings().refuse("spec.runtimeRef", "is required: the runtime to train on");
      return null;
    }
    nodes.onlyKnown(
        ref, "spec.runtimeRef", Set.of("name", "apiGroup", "kind"), Map.of(), "a runtimeRef");
    var name = nodes.text(ref.get("name"), "spec.runtimeRef.name");
    var group = nodes.text(ref.get("apiGroup"), "spec.runtimeRef.apiGroup");
    var kind = nodes.text(ref.get("kind"), "spec.runtimeRef.kind");
    if (group != null && !group.equals(TrainJobWriter.RUNTIME_API_GROUP)) {
      nodes
          .findings()
          .refuse("spec.runtimeRef.apiGroup", "must be " + TrainJobWriter.RUNTIME_API_GROUP);
    }
    if (kind != null
        && !kind.equals(TrainJobWriter.RUNTIME_KIND)
        && !kind.equals("TrainingRuntime")) {
      nodes
          .findings()
          .refuse("spec.runtimeRef.kind", "must be ClusterTrainingRuntime or TrainingRuntime");
    }
    if (name == null || name.isBlank()) {
      nodes.findings().refuse("spec.runtimeRef.name", "is required: the runtime to train on");
      return null;
    }
    var runtime = runtimes.find(name).orElse(null);
    if (runtime == null) {
      nodes
          .findings()
          .refuse(
              "spec.runtimeRef.name",
              "'"
                  + name
                  + "' is not a runtime Trainyard knows; known runtimes: "
                  + runtimes.names()
                  + " (a trainer-v2 cluster may declare more under runtimes:)");
      return null;
    }
    if (runtime.framework() == null || !READ.contains(runtime.framework())) {
      nodes.findings().refuse("spec.runtimeRef.name", notRead(runtime));
      return null;
    }
    var result = JsonNodeFactory.instance.objectNode();
    result.put("name", name);
    result.put("apiGroup", TrainJobWriter.RUNTIME_API_GROUP);
    result.put("kind", kind == null ? TrainJobWriter.RUNTIME_KIND : kind);
    return new RuntimeRef(result, runtime);
  }

  private static String notRead(TrainerRuntimes.Runtime runtime) {
    var runs =
        "'"
            + runtime.name()
            + "' runs "
            + (runtime.trainerLabel() != null
                ? runtime.trainerLabel() + " (its trainer.kubeflow.org/framework label)"
                : runtime.framework().wireName());
    if (runtime.framework() == Framework.MPI) {
      return runs
          + ", whose launcher is one of its nodes (mlPolicy.mpi.runLauncherAsNode), which"
          + " Trainyard's MPI roles cannot say yet; submit an MPIJob (kubeflow.org/v2beta1) with"
          + " a launcher and workers instead";
    }
    if (runtime.framework() == null) {
      return runs
          + ": the runtime's own steps (model and dataset initializers, its tune run command)"
          + " decide what runs, which Trainyard cannot route or price; use a torch runtime"
          + " (torch-distributed) with your own command";
    }
    return runs
        + ": Trainyard reads TrainJobs on torch, xgboost and jax runtimes only; submit the"
        + " kubeflow.org/v1 job of that framework instead";
  }

  /** The pod patches under whichever name the document uses (only one may be used). */
  private static List<ObjectNode> patches(ObjectNode spec, NodeReader nodes, ObjectNode jobSet) {
    var used = TrainJobPodPatches.FIELDS.stream().filter(f -> !absent(spec.get(f))).toList();
    if (used.size() > 1) {
      nodes
          .findings()
          .refuse(
              "spec." + used.get(1),
              "a Trainer version reads one of podSpecOverrides (v2.0), podTemplateOverrides"
                  + " (v2.1) and runtimePatches (v2.2 and later); this document also has "
                  + used.get(0)
                  + ": keep one");
      return List.of();
    }
    return used.isEmpty()
        ? List.of()
        : TrainJobPodPatches.read(spec.get(used.get(0)), used.get(0), nodes, jobSet);
  }

  /** TrainJob parts only a Trainer cluster can honour, kept as written. */
  private static void kept(
      ObjectNode spec,
      Map<String, Object> trainJob,
      List<ObjectNode> patches,
      ObjectNode jobSet,
      NodeReader nodes) {
    var initializer = nodes.object(spec.get("initializer"), "spec.initializer");
    if (initializer != null) {
      nodes.onlyKnown(
          initializer, "spec.initializer", Set.of("dataset", "model"), Map.of(), "an initializer");
      for (var part : List.of("dataset", "model")) {
        var p = nodes.object(initializer.get(part), at("spec.initializer", part));
        if (p != null) {
          nodes.onlyKnown(
              p,
              at("spec.initializer", part),
              Set.of("storageUri", "env", "secretRef"),
              Map.of(),
              "a " + part + " initializer");
        }
      }
      trainJob.put("initializer", PodTemplateTrees.toMap(initializer));
    }
    for (var field : List.of("labels", "annotations")) {
      // Before v2.2 spec.labels / spec.annotations; from v2.2 a runtime patch's JobSet metadata.
      var map = nodes.stringMap(jobSet.get(field), "spec.runtimePatches");
      map.putAll(nodes.stringMap(spec.get(field), "spec." + field));
      if (!map.isEmpty()) {
        trainJob.put(field, map);
      }
    }
    var managedBy = nodes.text(spec.get("managedBy"), "spec.managedBy");
    if (TRAINER_CONTROLLER.equals(managedBy)) {
      nodes.findings().warn("spec.managedBy", "is Trainer's default (" + managedBy + "); left out");
    } else if (MULTIKUEUE.equals(managedBy)) {
      trainJob.put("managedBy", managedBy);
    } else if (managedBy != null) {
      nodes
          .findings()
          .refuse("spec.managedBy", "must be " + TRAINER_CONTROLLER + " or " + MULTIKUEUE);
    }
    if (!patches.isEmpty()) {
      var list = new ArrayList<Object>();
      patches.forEach(p -> list.add(PodTemplateTrees.toMap(p)));
      trainJob.put("podTemplateOverrides", list);
    }
  }

  private static void suspend(JsonNode node, Map<String, String> labels, NodeReader nodes) {
    if (KubeflowSuspend.forKueue(node, labels, "spec.suspend", nodes)) {
      return;
    }
    nodes.defaultOnly(
        node,
        "spec.suspend",
        BooleanNode.FALSE,
        "Trainyard starts the job once it is placed and never resumes it; leave suspend out (a"
            + " cluster's kueueQueue, or a kueue.x-k8s.io/queue-name label, holds jobs until Kueue"
            + " admits them)");
  }
}
