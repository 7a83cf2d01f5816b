package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOptions;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.TrainingJob;
import io.trainyard.spi.spec.Volume;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a Trainyard spec as the {@code kubeflow.org/v1} document of its framework's kind (a
 * {@code PyTorchJob} for {@code pytorch}, ...), the reverse of {@link KubeflowReader}: reading a
 * document and writing it back gives the same document after the reader's documented adjustments
 * and normalisations, and writing a spec the reader produced then reading it gives that spec back.
 * Stateless and thread-safe; the result is a fresh tree the caller may change.
 *
 * <p>Not rendered, because they are no part of a Kubeflow job object: {@code estimatedHours},
 * {@code placement} and {@code compliance} (routing inputs) and {@code inputs}, {@code output},
 * {@code checkpoint} and {@code deepspeed} (the Kubernetes backend decides how to hand them to the
 * job). A spec's {@code volumes} render as a PersistentVolumeClaim volume and mount in every
 * replica, which reads back as {@code kubernetes.podTemplate}: the same pods, another spec.
 */
public final class KubeflowWriter {

  /**
   * Which operator serves {@code mpijobs.kubeflow.org} on the target cluster, so which MPIJob an
   * MPI job is written as. Both serve the same CRD name, so a cluster runs one of them.
   */
  public enum MpiOperator {
    /** The training operator: {@code kubeflow.org/v1} MPIJob. */
    TRAINING_OPERATOR("training-operator"),
    /** The MPI Operator v2: {@code kubeflow.org/v2beta1} MPIJob. */
    MPI_OPERATOR_V2("mpi-operator-v2");

    private final String wireName;

    MpiOperator(String wireName) {
      this.wireName = wireName;
    }

    /** As a cluster block writes it: {@code training-operator}, {@code mpi-operator-v2}. */
    public String wireName() {
      return wireName;
    }

    /** The apiVersion an MPIJob has on a cluster running this operator. */
    public String apiVersion() {
      return this == MPI_OPERATOR_V2 ? KubeflowKind.MPI_V2_API_VERSION : KubeflowKind.API_VERSION;
    }

    public static MpiOperator fromWireName(String name) {
      for (var o : values()) {
        if (o.wireName.equals(name)) {
          return o;
        }
      }
      throw new IllegalArgumentException(
          "mpiOperator must be training-operator or mpi-operator-v2, not " + name);
    }
  }

  /**
   * What the caller decides about the object rather than the spec.
   *
   * @param name the object's name; null = the job's {@code metadata.name}
   * @param namespace the object's namespace; null = none written (the client's default)
   * @param labels added to the job's labels, replacing any of the same key
   * @param pods role → what to add to that role's pods (see {@link PodAdditions}); roles not named
   *     get nothing
   */
  public record RenderOptions(
      String name, String namespace, Map<String, String> labels, Map<String, PodAdditions> pods) {
    public static final RenderOptions DEFAULTS = new RenderOptions(null, null, null);

    public RenderOptions {
      labels = labels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
      pods = pods == null ? Map.of() : Map.copyOf(pods);
    }

    /** Options that add nothing to the pods. */
    public RenderOptions(String name, String namespace, Map<String, String> labels) {
      this(name, namespace, labels, null);
    }

    PodAdditions podsOf(String role) {
      return pods.getOrDefault(role, PodAdditions.NONE);
    }
  }

  public ObjectNode write(TrainingJob job) {
    return write(job, RenderOptions.DEFAULTS);
  }

  /**
   * The document for a valid {@code job}.
   *
   * @throws KubeflowConversionException when the spec uses something its kind cannot express (see
   *     {@link #unsupported})
   */
  public ObjectNode write(TrainingJob job, RenderOptions options) {
    return write(job, options, MpiOperator.TRAINING_OPERATOR);
  }

  /**
   * The document for a valid {@code job}; an MPI job is written as the MPIJob {@code mpiOperator}
   * serves (the others do not depend on it).
   *
   * @throws KubeflowConversionException when the spec uses something its kind cannot express (see
   *     {@link #unsupported(JobSpec, MpiOperator)})
   */
  public ObjectNode write(TrainingJob job, RenderOptions options, MpiOperator mpiOperator) {
    var spec = job.spec();
    var problems = unsupported(spec, mpiOperator);
    if (!problems.isEmpty()) {
      throw new KubeflowConversionException(problems);
    }
    var kind = KubeflowKind.of(spec.framework());
    var root = JsonNodeFactory.instance.objectNode();
    var mpiV2 = kind == KubeflowKind.MPI_JOB && mpiOperator == MpiOperator.MPI_OPERATOR_V2;
    root.put("apiVersion", mpiV2 ? KubeflowKind.MPI_V2_API_VERSION : KubeflowKind.API_VERSION);
    root.put("kind", kind.kind());
    root.set("metadata", metadata(job, options));
    var body = root.putObject("spec");
    var replicaSpecs = body.putObject(kind.replicaSpecsField());
    for (var role : spec.roleSpecs()) {
      replicaSpecs.set(
          kind.replicaType(role.name()),
          replicaSpec(kind, spec, role, options.podsOf(role.name())));
    }
    var runPolicy = RunPolicyMapping.write(spec);
    if (runPolicy != null) {
      body.set("runPolicy", runPolicy);
    }
    FrameworkFields.write(kind, spec, body);
    if (mpiV2) {
      MpiV2Fields.write(spec, body);
    }
    return root;
  }

  /**
   * What a valid spec asks for that a Kubeflow document of its kind cannot carry, each naming the
   * spec's field; empty when {@link #write} can render it. A Kubernetes backend rejects such a job
   * with these reasons.
   */
  public static List<FieldError> unsupported(JobSpec spec) {
    return unsupported(spec, MpiOperator.TRAINING_OPERATOR);
  }

  /**
   * As {@link #unsupported(JobSpec)}, for a cluster whose MPIJobs {@code mpiOperator} serves: the
   * training operator's v1 MPIJob has no place for {@code spec.kubernetes.mpi} settings other than
   * the MPI Operator v2's defaults.
   */
  public static List<FieldError> unsupported(JobSpec spec, MpiOperator mpiOperator) {
    var result = new ArrayList<FieldError>();
    var mpi = spec.kubernetes() == null ? null : spec.kubernetes().mpi();
    if (mpi != null && mpiOperator == MpiOperator.TRAINING_OPERATOR) {
      for (var field : mpi.nonDefaultFields()) {
        result.add(
            new FieldError(
                MpiV2Fields.field(field),
                "is an MPI Operator v2 setting, which the training operator's kubeflow.org/v1"
                    + " MPIJob cannot say (it runs OpenMPI, starts the launcher at once and"
                    + " reaches workers with kubectl exec); run it on a cluster with mpiOperator:"
                    + " mpi-operator-v2"));
      }
    }
    var framework = spec.framework();
    // A PaddleJob or JAXJob has no per-pod process count either: the operator sets
    // PADDLE_NNODES / NUM_PROCESSES to the number of pods.
    if ((framework == Framework.TENSORFLOW
            || framework == Framework.XGBOOST
            || framework == Framework.PADDLE
            || framework == Framework.JAX)
        && spec.effectiveProcessesPerReplica() > 1) {
      result.add(
          new FieldError(
              "spec.processesPerReplica",
              "a " + framework + " job on Kubernetes runs one process per replica"));
    }
    if (spec.elastic() != null && framework != Framework.PYTORCH) {
      result.add(new FieldError("spec.elastic", "only a PyTorchJob has an elasticPolicy"));
    }
    if (spec.kubernetes() != null) {
      for (var field : spec.kubernetes().trainerOnlyFields()) {
        result.add(
            new FieldError(
                "spec.kubernetes.trainJob." + field,
                "is the TrainJob's spec."
                    + field
                    + ", which a kubeflow.org/v1 job has no place for; run it on a cluster of"
                    + " flavor trainer-v2"));
      }
    }
    var kind = KubeflowKind.of(framework);
    shadowed(spec.kubernetes(), "spec.kubernetes", kind, result);
    spec.roles()
        .forEach(
            (role, o) ->
                shadowed(o.kubernetes(), "spec.roles." + role + ".kubernetes", kind, result));
    return result;
  }

  /** The framework's container entry may not set what the spec itself sets: one would lose. */
  private static void shadowed(
      KubernetesOptions options, String path, KubeflowKind kind, List<FieldError> result) {
    if (options == null || !(options.podTemplate().get("containers") instanceof List<?> list)) {
      return;
    }
    var tree = PodTemplateTrees.toTree(options.podTemplate());
    var containers = (ArrayNode) tree.get("containers");
    var main = mainIndex(containers, kind);
    if (kind == KubeflowKind.MPI_JOB) {
      mpiEntries(containers, main, path, result);
    }
    for (int i = 0; i < list.size(); i++) {
      if (i == main && list.get(i) instanceof Map<?, ?> entry) {
        for (var field : List.of("image", "command", "args", "env")) {
          if (entry.containsKey(field)) {
            result.add(
                new FieldError(
                    path + ".podTemplate.containers[" + i + "]." + field,
                    "is the spec's own field; set it there"));
          }
        }
      }
    }
  }

  /**
   * An MPIJob's operator wires up the first container: the entry for it (one without an image) must
   * come first, and a sidecar may not take the name the rendered one gets.
   */
  private static void mpiEntries(
      ArrayNode containers, int main, String path, List<FieldError> result) {
    var name =
        main == 0 ? containers.get(0).path("name").asText() : KubeflowKind.MPI_JOB.containerName();
    for (int i = 0; i < containers.size(); i++) {
      var at = path + ".podTemplate.containers[" + i + "]";
      if (i != main && !containers.get(i).has("image")) {
        result.add(
            new FieldError(
                at,
                "has no image, so it is the MPI container's entry, which must come first: the"
                    + " operator wires up the first container"));
      } else if (i != main && name.equals(containers.get(i).path("name").asText(null))) {
        result.add(new FieldError(at + ".name", "'" + name + "' is the MPI container's name"));
      }
    }
  }

  private static ObjectNode metadata(TrainingJob job, RenderOptions options) {
    var meta = JsonNodeFactory.instance.objectNode();
    if (options.name() != null || job.metadata().name() != null) {
      meta.put("name", options.name() != null ? options.name() : job.metadata().name());
    } else {
      meta.put("generateName", job.metadata().generateName());
    }
    if (options.namespace() != null) {
      meta.put("namespace", options.namespace());
    }
    // The spec's labels for the object (metadata.labels are the Trainyard job's own, not the
    // object's), then the caller's (the gateway's), which win on a clash.
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

  private static ObjectNode replicaSpec(
      KubeflowKind kind, JobSpec spec, RoleSpec role, PodAdditions additions) {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("replicas", role.replicas());
    // The role's own restart policy, not the spec's effective one: absent stays absent, so the
    // operator's default applies as it did in the document.
    var override = spec.roles().get(role.name());
    var restartPolicy =
        override != null && override.restartPolicy() != null
            ? override.restartPolicy()
            : spec.restartPolicy();
    if (restartPolicy != null) {
      node.put("restartPolicy", restartPolicy.wireName());
    }
    node.set("template", template(kind, spec, role, additions));
    return node;
  }

  private static ObjectNode template(
      KubeflowKind kind, JobSpec spec, RoleSpec role, PodAdditions additions) {
    var podTemplate = PodTemplateTrees.toTree(role.kubernetes().podTemplate());
    var template = JsonNodeFactory.instance.objectNode();
    var metadata = podTemplate.remove("metadata");
    if (metadata != null) {
      template.set("metadata", metadata);
    }
    var containers =
        podTemplate.has("containers")
            ? (ArrayNode) podTemplate.remove("containers")
            : JsonNodeFactory.instance.arrayNode();
    var index = mainIndex(containers, kind);
    var main = mainContainer(kind, role, index < 0 ? null : (ObjectNode) containers.get(index));
    if (index < 0) {
      containers.insert(0, main);
    } else {
      containers.set(index, main);
    }
    var podSpec = JsonNodeFactory.instance.objectNode();
    podSpec.setAll(podTemplate);
    podSpec.set("containers", containers);
    claims(spec.volumes(), podSpec, main);
    PodAdditionsMerge.apply(additions, podSpec, main);
    template.set("spec", podSpec);
    return template;
  }

  /**
   * Where the framework's container's entry stands in a pod template's containers, or -1. An
   * MPIJob's is the first entry when that entry has no image (it is no whole sidecar): its operator
   * wires up the first container, whatever its name. The other kinds' is the entry of their name.
   */
  static int mainIndex(ArrayNode containers, KubeflowKind kind) {
    if (kind == KubeflowKind.MPI_JOB) {
      return !containers.isEmpty() && !containers.get(0).has("image") ? 0 : -1;
    }
    for (int i = 0; i < containers.size(); i++) {
      if (kind.containerName().equals(containers.get(i).path("name").asText(null))) {
        return i;
      }
    }
    return -1;
  }

  /** The framework's container: the spec's fields first, then what the pod template carries. */
  private static ObjectNode mainContainer(KubeflowKind kind, RoleSpec role, ObjectNode carried) {
    var c = JsonNodeFactory.instance.objectNode();
    c.put("name", carried != null ? carried.path("name").asText() : kind.containerName());
    c.put("image", role.image());
    if (!role.command().isEmpty()) {
      role.command().forEach(c.putArray("command")::add);
    }
    if (!role.args().isEmpty()) {
      role.args().forEach(c.putArray("args")::add);
    }
    if (!role.env().isEmpty() || !role.secretEnv().isEmpty()) {
      var env = c.putArray("env");
      role.env().forEach((name, value) -> env.addObject().put("name", name).put("value", value));
      role.secretEnv()
          .forEach(
              (name, ref) ->
                  env.addObject()
                      .put("name", name)
                      .putObject("valueFrom")
                      .putObject("secretKeyRef")
                      .put("name", ref.secret())
                      .put("key", ref.key()));
    }
    // A resources block in the pod template is the document's own, kept because the spec's
    // values could not say it; it wins over rendering them.
    JsonNode resources = carried != null ? carried.get("resources") : null;
    if (resources == null) {
      resources = ContainerResources.write(role.resources());
    }
    if (resources != null) {
      c.set("resources", resources);
    }
    if (carried != null) {
      carried.properties().forEach(e -> c.putIfAbsent(e.getKey(), e.getValue()));
    }
    return c;
  }

  /** The spec's PersistentVolumeClaims, mounted in the framework's container. */
  private static void claims(List<Volume> volumes, ObjectNode podSpec, ObjectNode main) {
    if (volumes.isEmpty()) {
      return;
    }
    var podVolumes = podSpec.withArray("volumes");
    var mounts = main.withArray("volumeMounts");
    for (var v : volumes) {
      podVolumes
          .addObject()
          .put("name", v.name())
          .putObject("persistentVolumeClaim")
          .put("claimName", v.claim());
      mounts.addObject().put("name", v.name()).put("mountPath", v.mountPath());
    }
  }
}
