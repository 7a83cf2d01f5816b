package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.CleanPodPolicy;
import io.trainyard.spi.spec.Cleanup;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.KubernetesOptions;
import io.trainyard.spi.spec.TrainingJob;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Converts a {@code kubeflow.org/v1} {@code PyTorchJob}, {@code TFJob}, {@code MPIJob}, {@code
 * XGBoostJob}, {@code PaddleJob} or {@code JAXJob} document, or the MPI Operator v2's {@code
 * kubeflow.org/v2beta1} {@code MPIJob} (its own fields: {@code MpiV2Fields}), into a Trainyard
 * {@link TrainingJob}. Every field of the document is carried over, adjusted with a warning, or
 * refused with its full path; nothing is dropped silently. Stateless and thread-safe.
 *
 * <p>Adjustments (each answered as a warning): {@code metadata.namespace} is left out (the gateway
 * puts the job in the team's namespace); a {@code spec.volumes} list, which the operator ignores,
 * is added to every replica's pod template; a {@code spec.cleanPodPolicy} at the top of the spec
 * (the older place) is read as {@code runPolicy.cleanPodPolicy}; fields at the operator's default
 * that Trainyard has no place for ({@code runPolicy.suspend: false}, ...) are left out; a replica
 * type with {@code replicas: 0} is left out; TensorFlow's {@code Master} is read as {@code Chief};
 * a pod template's {@code restartPolicy}, which the operator overwrites with the replica's, is left
 * out; what a document read back from a cluster or written by a Go client carries besides its
 * author's fields ({@code status}, {@code metadata.uid}, {@code creationTimestamp: null}, ...) is
 * left out (see {@link ReadBackFields}); a {@code generateName} next to a {@code name} is left out.
 *
 * <p>The job object's {@code metadata.labels} and {@code annotations} become {@code
 * spec.kubernetes.jobLabels} and {@code jobAnnotations}; a {@code metadata.generateName} without a
 * name stays one, for the gateway to complete. Refused as a whole, with one error each: an {@code
 * apiVersion} other than {@code kubeflow.org/v1} (and {@code kubeflow.org/v2beta1} for an MPIJob),
 * naming what to write, and a template placeholder left in a value (see {@link
 * TemplatePlaceholders}).
 *
 * <p>Silent normalisations, which change nothing Kubernetes runs: a replica type without {@code
 * replicas} gets the operator's default {@code 1}; {@code requests} equal to {@code limits} are
 * left to Kubernetes' defaulting; an env entry without a value gets {@code ""}; env entries shared
 * by every replica type are written first (see {@link RoleFactoring}); quantities are written in
 * one form ({@code cpu: 8}, {@code cpu: 500m}).
 */
public final class KubeflowReader {
  /**
   * True when {@code document} says it is a Kubeflow job, so {@link #read} should take it: an
   * {@code apiVersion} in the {@code kubeflow.org} group, or in an older Kubeflow group ({@code
   * xgboostjob.kubeflow.org}, ...), which {@link #read} refuses naming what to write instead.
   * Kubeflow Trainer's {@code trainer.kubeflow.org} is not taken here.
   */
  public static boolean isKubeflowDocument(JsonNode document) {
    if (document == null) {
      return false;
    }
    var group = group(document.path("apiVersion").asText(""));
    return group.equals("kubeflow.org")
        || (group.endsWith(".kubeflow.org") && !group.equals("trainer.kubeflow.org"));
  }

  private static String group(String apiVersion) {
    var slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /**
   * The spec for {@code document} (as parsed by {@link KubeflowDocuments#parseSingle}), with the
   * adjustments made.
   *
   * @throws KubeflowConversionException naming every field that cannot be carried
   */
  public Conversion read(JsonNode document) {
    var findings = new Findings();
    var nodes = new NodeReader(findings);
    if (document == null || !document.isObject()) {
      findings.refuse("", "must be a kubeflow.org/v1 job document");
      findings.throwIfRefused();
    }
    var root = (ObjectNode) document;
    var kind = kind(root, nodes);
    findings.throwIfRefused();
    var mpiV2 = KubeflowKind.MPI_V2_API_VERSION.equals(root.path("apiVersion").asText());
    root = ReadBackFields.strip(root, findings);
    var placeholders = TemplatePlaceholders.find(root);
    if (!placeholders.isEmpty()) {
      // Every other error would be a consequence ("must be a whole number"): these alone.
      throw new KubeflowConversionException(placeholders);
    }
    nodes.onlyKnown(
        root, "", Set.of("apiVersion", "kind", "metadata", "spec"), Map.of(), "a " + kind.kind());
    var object = JobObjectMetadata.read(root.get("metadata"), nodes);
    var metadata = object.meta();
    var jobLabels = object.labels();
    var jobAnnotations = object.annotations();
    var spec = nodes.object(root.get("spec"), "spec");
    if (spec == null) {
      findings.refuse("spec", "is required");
    }
    var jobSpec =
        spec == null
            ? null
            : mpiV2
                ? MpiV2Fields.spec(spec, jobLabels, jobAnnotations, nodes)
                : spec(kind, spec, jobLabels, jobAnnotations, nodes);
    findings.throwIfRefused();
    return new Conversion(
        new TrainingJob(TrainingJob.API_VERSION, TrainingJob.KIND, metadata, jobSpec),
        findings.warnings());
  }

  private static KubeflowKind kind(ObjectNode root, NodeReader nodes) {
    var apiVersion = nodes.text(root.get("apiVersion"), "apiVersion");
    if (apiVersion == null) {
      nodes.findings().refuse("apiVersion", "must be " + KubeflowKind.API_VERSION);
    } else if (KubeflowKind.MPI_V2_API_VERSION.equals(apiVersion)
        && KubeflowKind.MPI_JOB.kind().equals(root.path("kind").asText())) {
      return KubeflowKind.MPI_JOB; // the MPI Operator v2's MPIJob
    } else if (!KubeflowKind.API_VERSION.equals(apiVersion)) {
      // The spec of another group or version has another structure: its fields would each be
      // refused as unknown, which says nothing of the real problem. One error says it.
      nodes.findings().refuse("apiVersion", otherApiVersion(apiVersion, root.path("kind")));
      return null;
    }
    var kind = nodes.text(root.get("kind"), "kind");
    var known = kind == null ? null : KubeflowKind.fromKind(kind).orElse(null);
    if (known == null) {
      nodes.findings().refuse("kind", "must be one of " + kinds());
    }
    return known;
  }

  private static String kinds() {
    return java.util.Arrays.stream(KubeflowKind.values())
        .map(KubeflowKind::kind)
        .collect(Collectors.joining(", "));
  }

  private static String otherApiVersion(String apiVersion, JsonNode kindNode) {
    var kind = KubeflowKind.fromKind(kindNode.asText("")).orElse(null);
    var use =
        kind == null
            ? "write apiVersion: "
                + KubeflowKind.API_VERSION
                + " with a kind of the Training Operator ("
                + kinds()
                + ") and its spec"
            : "write apiVersion: "
                + KubeflowKind.API_VERSION
                + " and the "
                + kind.kind()
                + " spec the Training Operator reads (spec."
                + kind.replicaSpecsField()
                + ", spec.runPolicy)";
    var group = group(apiVersion);
    if (group.equals("xgboostjob.kubeflow.org")) {
      return "'"
          + apiVersion
          + "' is the API of the archived xgboost-operator, whose jobs the Training Operator now"
          + " runs as kubeflow.org/v1 XGBoostJob; "
          + use;
    }
    if (group.equals("kubeflow.org") && apiVersion.equals(KubeflowKind.MPI_V2_API_VERSION)) {
      return "'"
          + apiVersion
          + "' is read only as the MPI Operator v2's MPIJob (kind: MPIJob), not as a "
          + kindName(kindNode)
          + "; "
          + use;
    }
    if (group.equals("kubeflow.org")) {
      return "'"
          + apiVersion
          + "' is an older version of the Kubeflow job API, which the Training Operator no longer"
          + " serves and whose spec differs; "
          + use;
    }
    return "'" + apiVersion + "' is not an API Trainyard reads (its spec differs); " + use;
  }

  private static String kindName(JsonNode kindNode) {
    return kindNode.isTextual() ? kindNode.asText() : "document without a kind";
  }

  /** The spec from what the reader of either API version found. */
  static JobSpec jobSpec(
      KubeflowKind kind,
      List<Replica> replicas,
      RunPolicyMapping.Values runPolicy,
      CleanPodPolicy pods,
      Integer processesPerReplica,
      io.trainyard.spi.spec.Elastic elastic,
      Map<String, String> jobLabels,
      Map<String, String> jobAnnotations,
      io.trainyard.spi.spec.MpiOptions mpi) {
    var f = RoleFactoring.factor(replicas);
    var cleanup =
        pods == null && runPolicy.ttlAfterFinished() == null
            ? null
            : new Cleanup(pods, runPolicy.ttlAfterFinished());
    var kubernetes =
        new KubernetesOptions(
            f.podTemplate(), runPolicy.scheduling(), jobLabels, jobAnnotations, null, mpi);
    return new JobSpec(
        kind.framework(),
        f.image(),
        f.command(),
        f.args(),
        f.env(),
        f.secretEnv(),
        f.resources(),
        f.restartPolicy(),
        f.replicas(),
        f.roles(),
        processesPerReplica,
        elastic,
        null,
        runPolicy.maxRuntime(),
        runPolicy.maxRestarts(),
        cleanup,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        kubernetes.isEmpty() ? null : kubernetes);
  }

  private static JobSpec spec(
      KubeflowKind kind,
      ObjectNode spec,
      Map<String, String> jobLabels,
      Map<String, String> jobAnnotations,
      NodeReader nodes) {
    var known = new HashSet<>(FrameworkFields.names(kind));
    known.addAll(Set.of(kind.replicaSpecsField(), "runPolicy", "cleanPodPolicy", "volumes"));
    nodes.onlyKnown(spec, "spec", known, Map.of(), "a " + kind.kind() + " spec");
    var replicas = new ReplicaSpecsReader(kind, nodes).read(spec);
    topLevelVolumes(kind, spec.get("volumes"), replicas, nodes);
    var runPolicy =
        RunPolicyMapping.read(spec.get("runPolicy"), "spec.runPolicy", jobLabels, nodes);
    var pods = cleanPodPolicy(spec, runPolicy.pods(), nodes);
    var own =
        FrameworkFields.read(
            kind,
            spec,
            replicas.stream().map(r -> r.main().name()).collect(Collectors.toSet()),
            nodes);
    if (replicas.isEmpty() || nodes.findings().hasErrors()) {
      return null;
    }
    return jobSpec(
        kind,
        replicas,
        runPolicy,
        pods,
        own.processesPerReplica(),
        own.elastic(),
        jobLabels,
        jobAnnotations,
        null);
  }

  /** The older top-level cleanPodPolicy, read as runPolicy's (seed 004 writes it there). */
  private static CleanPodPolicy cleanPodPolicy(
      ObjectNode spec, CleanPodPolicy fromRunPolicy, NodeReader nodes) {
    var top =
        RunPolicyMapping.cleanPodPolicy(spec.get("cleanPodPolicy"), "spec.cleanPodPolicy", nodes);
    if (top == null) {
      return fromRunPolicy;
    }
    if (fromRunPolicy != null && fromRunPolicy != top) {
      nodes
          .findings()
          .refuse("spec.cleanPodPolicy", "differs from spec.runPolicy.cleanPodPolicy; keep one");
      return fromRunPolicy;
    }
    nodes
        .findings()
        .warn(
            "spec.cleanPodPolicy",
            "read as spec.runPolicy.cleanPodPolicy, where the operator reads it now");
    return top;
  }

  /**
   * A {@code volumes} list at the top of the spec, which the operator ignores: the user means
   * "mount these in every replica", so it is added to every replica's pod template.
   */
  private static void topLevelVolumes(
      KubeflowKind kind, JsonNode node, List<Replica> replicas, NodeReader nodes) {
    if (absent(node)) {
      return;
    }
    if (!node.isArray()) {
      nodes.findings().refuse("spec.volumes", "must be a list of pod volumes");
      return;
    }
    for (int i = 0; i < node.size(); i++) {
      var name = node.get(i).path("name");
      if (!node.get(i).isObject() || !name.isTextual()) {
        nodes.findings().refuse(at("spec.volumes", i), "must be a pod volume with a name");
        return;
      }
    }
    for (var r : replicas) {
      var volumes =
          r.podTemplate().has("volumes")
              ? (ArrayNode) r.podTemplate().get("volumes")
              : r.podTemplate().putArray("volumes");
      for (int i = 0; i < node.size(); i++) {
        var name = node.get(i).get("name").asText();
        if (names(volumes).contains(name)) {
          nodes
              .findings()
              .refuse(
                  at(at("spec.volumes", i), "name"),
                  "'" + name + "' is also a volume of the " + r.role() + " pod template");
        } else {
          volumes.add(node.get(i).deepCopy());
        }
      }
    }
    nodes
        .findings()
        .warn(
            "spec.volumes",
            "the operator ignores volumes here; added to the pod template of every replica ("
                + replicas.stream()
                    .map(r -> kind.replicaType(r.role()))
                    .collect(Collectors.joining(", "))
                + ")");
  }

  private static Set<String> names(ArrayNode volumes) {
    var result = new HashSet<String>();
    volumes.forEach(v -> result.add(v.path("name").asText()));
    return result;
  }
}
