package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.kubeflow.ContainerReader.MainContainer;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads one replica's pod template: the framework's container into the spec's fields, everything
 * only Kubernetes can honour into the shape of {@code kubernetes.podTemplate} (see {@code
 * KubernetesOptions}), and refuses by path what would fight the operator or the gateway.
 */
final class PodTemplateReader {
  /** Pod-spec fields carried into {@code kubernetes.podTemplate} as they are. */
  static final Set<String> CARRIED =
      Set.of(
          "affinity",
          "automountServiceAccountToken",
          "dnsConfig",
          "dnsPolicy",
          "enableServiceLinks",
          "hostAliases",
          "hostIPC",
          "hostNetwork",
          "hostPID",
          "hostUsers",
          "imagePullSecrets",
          "initContainers",
          "nodeSelector",
          "os",
          "preemptionPolicy",
          "priorityClassName",
          "resourceClaims",
          "resources",
          "runtimeClassName",
          "schedulerName",
          "securityContext",
          "serviceAccountName",
          "setHostnameAsFQDN",
          "shareProcessNamespace",
          "terminationGracePeriodSeconds",
          "tolerations",
          "topologySpreadConstraints",
          "volumes");

  private static final String OPERATOR_NAMES = "the operator names each replica's pod itself";
  private static final Map<String, String> REFUSED =
      Map.ofEntries(
          Map.entry(
              "activeDeadlineSeconds",
              "would fail single replicas behind the job's back; use"
                  + " runPolicy.activeDeadlineSeconds (→ spec.maxRuntime)"),
          Map.entry("nodeName", "pins one node; Trainyard chooses the cluster and its node pool"),
          Map.entry("hostname", OPERATOR_NAMES),
          Map.entry("hostnameOverride", OPERATOR_NAMES),
          Map.entry("subdomain", OPERATOR_NAMES),
          Map.entry("serviceAccount", "is the deprecated alias; use serviceAccountName"),
          Map.entry("priority", "is set by admission from priorityClassName; use that"),
          Map.entry("overhead", "is set by admission from the RuntimeClass; leave it out"),
          Map.entry("ephemeralContainers", "cannot be set when a pod is created"),
          Map.entry("readinessGates", "gates traffic to a service; a training replica has none"),
          Map.entry("schedulingGates", "the gateway and Kueue decide when replicas schedule"),
          Map.entry("schedulingGroup", "the operator groups a job's pods itself"));
  private static final Map<String, String> METADATA_REFUSED =
      Map.of(
          "name", OPERATOR_NAMES,
          "namespace", "replicas run in the team's namespace",
          "finalizers", "would keep replicas from being cleaned up");

  /**
   * @param podTemplate the replica's {@code kubernetes.podTemplate}; empty when it needs none
   */
  record Template(MainContainer main, ObjectNode podTemplate) {}

  private final NodeReader nodes;
  private final KubeflowKind kind;
  private final String containerName;

  PodTemplateReader(NodeReader nodes, KubeflowKind kind) {
    this.nodes = nodes;
    this.kind = kind;
    this.containerName = kind.containerName();
  }

  /** The template, or null when it cannot be read at all (already refused). */
  Template read(ObjectNode template, String path) {
    nodes.onlyKnown(template, path, Set.of("metadata", "spec"), Map.of(), "a pod template");
    var podTemplate = JsonNodeFactory.instance.objectNode();
    var meta = nodes.object(template.get("metadata"), at(path, "metadata"));
    if (meta != null && !meta.isEmpty()) {
      var at = at(path, "metadata");
      nodes.onlyKnown(
          meta, at, Set.of("labels", "annotations"), METADATA_REFUSED, "a pod template's metadata");
      nodes.stringMap(meta.get("labels"), at(at, "labels"));
      nodes.stringMap(meta.get("annotations"), at(at, "annotations"));
      var carried = meta.deepCopy();
      carried.retain("labels", "annotations");
      podTemplate.set("metadata", carried);
    }
    var specPath = at(path, "spec");
    var spec = nodes.object(template.get("spec"), specPath);
    if (spec == null) {
      nodes.findings().refuse(specPath, "is required");
      return null;
    }
    var known = new HashSet<>(CARRIED);
    known.add("containers");
    known.add("restartPolicy");
    if (spec.has("restartPolicy")) {
      // The operator overwrites it with the replica spec's (training-operator v1.9
      // pkg/controller.v1/common/pod.go), so what the pods run is the replica's policy.
      nodes
          .findings()
          .warn(
              at(specPath, "restartPolicy"),
              "is overwritten by the operator with the replica spec's restartPolicy; left out");
    }
    nodes.onlyKnown(spec, specPath, known, REFUSED, "a Kubernetes pod spec");
    spec.properties()
        .forEach(
            e -> {
              if (CARRIED.contains(e.getKey())) {
                podTemplate.set(e.getKey(), e.getValue().deepCopy());
              }
            });
    var main = containers(spec, at(specPath, "containers"), podTemplate);
    return main == null ? null : new Template(main, podTemplate);
  }

  /**
   * The container the operator wires up. An MPIJob's is the first, whatever its name: the training
   * operator v1.9's MPIJob validation asks each container for a name and an image only and its
   * webhook for MPIJob does nothing ({@code pkg/apis/kubeflow.org/v1/mpi_validation.go}, {@code
   * pkg/webhooks/webhooks.go}), and its controller sets up {@code Containers[0]} of launcher and
   * worker ({@code pkg/controller.v1/mpi/mpijob_controller.go}). The other kinds' operators look
   * for the container by name.
   */
  private boolean isMain(ObjectNode container, int index) {
    return kind == KubeflowKind.MPI_JOB
        ? index == 0
        : containerName.equals(container.path("name").asText(null));
  }

  private MainContainer containers(ObjectNode spec, String path, ObjectNode podTemplate) {
    var list = spec.get("containers");
    if (list == null || !list.isArray() || list.isEmpty()) {
      nodes.findings().refuse(path, "is required: the '" + containerName + "' container");
      return null;
    }
    var overlay = JsonNodeFactory.instance.arrayNode();
    MainContainer main = null;
    for (int i = 0; i < list.size(); i++) {
      var at = at(path, i);
      var container = nodes.object(list.get(i), at);
      if (container == null) {
        continue;
      }
      if (!isMain(container, i)) {
        // Sidecars are pod-template content: carried whole, read by no one but Kubernetes.
        overlay.add(container.deepCopy());
        continue;
      }
      if (main != null) {
        nodes.findings().refuse(at(at, "name"), "'" + containerName + "' is used twice");
        continue;
      }
      main = new ContainerReader(nodes).read(container, at);
      // Keep the entry when it carries fields, or a name other than the kind's, or to hold the
      // container's place after sidecars.
      if (main.carried().size() > 1 || i > 0 || !containerName.equals(main.name())) {
        overlay.add(main.carried());
      }
    }
    if (main == null && kind == KubeflowKind.MPI_JOB) {
      nodes.findings().refuse(at(path, 0), "must be the MPI container, with a name and an image");
    } else if (main == null) {
      nodes
          .findings()
          .refuse(
              path,
              "has no container named '"
                  + containerName
                  + "': the operator wires up (and its webhook requires) a container of that"
                  + " name; rename yours");
    }
    if (!overlay.isEmpty()) {
      podTemplate.set("containers", overlay);
    }
    return main;
  }
}
