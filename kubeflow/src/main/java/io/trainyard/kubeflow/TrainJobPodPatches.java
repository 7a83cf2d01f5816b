package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A TrainJob's pod patches under the three names Kubeflow Trainer has given them, read into one
 * form and written back under the name a cluster's Trainer version expects. Pure; thread-safe.
 *
 * <p>From {@code kubeflow/trainer} {@code pkg/apis/trainer/v1alpha1/trainjob_types.go}:
 *
 * <ul>
 *   <li>{@code podSpecOverrides} (v2.0.0, {@code 117ad23a}): {@code [{targetJobs,
 *       serviceAccountName, nodeSelector, tolerations, volumes, initContainers, containers,
 *       schedulingGates}]}, containers {@code {name, env, volumeMounts}};
 *   <li>{@code podTemplateOverrides} (v2.1.0 {@code 73c9bece}, and the pinned CRD at {@code
 *       9b1edb2f}): {@code [{targetJobs, metadata, spec}]}, {@code spec} adding {@code affinity},
 *       {@code imagePullSecrets}, {@code securityContext}, containers adding {@code
 *       securityContext};
 *   <li>{@code runtimePatches} (v2.2.0 {@code dc7656ad}, commit {@code 38d8243c}): {@code
 *       [{manager, trainingRuntimeSpec: {template: {metadata, spec: {replicatedJobs: [{name,
 *       template: {metadata, spec: {template: {metadata, spec}}}}]}}}}]}, the pod {@code spec} a
 *       {@code PodSpecPatch} with the same fields.
 * </ul>
 *
 * <p>The common form is the {@code podTemplateOverrides} entry: {@code {targetJobs: [{name}],
 * metadata?, spec?}}. A runtime patch's JobSet and Job metadata have no place in it and are
 * refused; its {@code manager} is left out with a warning (Trainyard writes {@value #MANAGER}).
 */
final class TrainJobPodPatches {
  /** The field name each Trainer version reads pod patches from. */
  enum Style {
    POD_SPEC_OVERRIDES("podSpecOverrides"),
    POD_TEMPLATE_OVERRIDES("podTemplateOverrides"),
    RUNTIME_PATCHES("runtimePatches");

    private final String field;

    Style(String field) {
      this.field = field;
    }

    String field() {
      return field;
    }

    static Style of(String field) {
      for (var s : values()) {
        if (s.field.equals(field)) {
          return s;
        }
      }
      throw new IllegalArgumentException(
          "must be podSpecOverrides, podTemplateOverrides or runtimePatches, not " + field);
    }
  }

  /** The manager Trainyard names in the runtime patches it writes. */
  static final String MANAGER = "trainyard.io/gateway";

  static final List<String> FIELDS =
      List.of("podSpecOverrides", "podTemplateOverrides", "runtimePatches");

  private static final Set<String> V20_POD =
      Set.of(
          "serviceAccountName",
          "nodeSelector",
          "tolerations",
          "volumes",
          "initContainers",
          "containers",
          "schedulingGates");
  private static final Set<String> POD =
      Set.of(
          "serviceAccountName",
          "nodeSelector",
          "affinity",
          "tolerations",
          "securityContext",
          "volumes",
          "initContainers",
          "containers",
          "schedulingGates",
          "imagePullSecrets");
  private static final Set<String> CONTAINER =
      Set.of("name", "env", "volumeMounts", "securityContext");

  private TrainJobPodPatches() {}

  /**
   * The entries of the patch list at {@code field}, in the common form; refusals by path. A runtime
   * patch's JobSet labels and annotations go to {@code jobSet} ({@code labels}, {@code
   * annotations}): what {@code spec.labels} and {@code spec.annotations} said before v2.2.
   */
  static List<ObjectNode> read(JsonNode list, String field, NodeReader nodes, ObjectNode jobSet) {
    var path = "spec." + field;
    var result = new ArrayList<ObjectNode>();
    if (absent(list)) {
      return result;
    }
    if (!list.isArray()) {
      nodes.findings().refuse(path, "must be a list");
      return result;
    }
    for (int i = 0; i < list.size(); i++) {
      var at = at(path, i);
      var entry = nodes.object(list.get(i), at);
      if (entry == null) {
        continue;
      }
      switch (Style.of(field)) {
        case POD_SPEC_OVERRIDES -> podSpecOverride(entry, at, nodes, result);
        case POD_TEMPLATE_OVERRIDES -> podTemplateOverride(entry, at, nodes, result);
        case RUNTIME_PATCHES -> runtimePatch(entry, at, nodes, result, jobSet);
      }
    }
    return result;
  }

  private static void podSpecOverride(
      ObjectNode entry, String at, NodeReader nodes, List<ObjectNode> result) {
    var known = new java.util.HashSet<>(V20_POD);
    known.add("targetJobs");
    nodes.onlyKnown(entry, at, known, Map.of(), "a podSpecOverride");
    var spec = entry.deepCopy();
    spec.remove("targetJobs");
    add(entry.get("targetJobs"), at(at, "targetJobs"), null, spec, at, nodes, result);
  }

  private static void podTemplateOverride(
      ObjectNode entry, String at, NodeReader nodes, List<ObjectNode> result) {
    nodes.onlyKnown(
        entry, at, Set.of("targetJobs", "metadata", "spec"), Map.of(), "a podTemplateOverride");
    add(
        entry.get("targetJobs"),
        at(at, "targetJobs"),
        nodes.object(entry.get("metadata"), at(at, "metadata")),
        nodes.object(entry.get("spec"), at(at, "spec")),
        at(at, "spec"),
        nodes,
        result);
  }

  private static void runtimePatch(
      ObjectNode entry, String at, NodeReader nodes, List<ObjectNode> result, ObjectNode jobSet) {
    nodes.onlyKnown(
        entry, at, Set.of("manager", "time", "trainingRuntimeSpec"), Map.of(), "a runtimePatch");
    var manager = nodes.text(entry.get("manager"), at(at, "manager"));
    if (manager != null) {
      nodes
          .findings()
          .warn(at(at, "manager"), "'" + manager + "' left out: Trainyard writes " + MANAGER);
    }
    var trs = nodes.object(entry.get("trainingRuntimeSpec"), at(at, "trainingRuntimeSpec"));
    if (trs == null) {
      return;
    }
    var p = at(at, "trainingRuntimeSpec");
    nodes.onlyKnown(trs, p, Set.of("template"), Map.of(), "a trainingRuntimeSpec patch");
    var template = nodes.object(trs.get("template"), at(p, "template"));
    if (template == null) {
      return;
    }
    p = at(p, "template");
    nodes.onlyKnown(template, p, Set.of("metadata", "spec"), Map.of(), "a JobSet template patch");
    var meta = nodes.object(template.get("metadata"), at(p, "metadata"));
    if (meta != null) {
      nodes.onlyKnown(
          meta,
          at(p, "metadata"),
          Set.of("labels", "annotations"),
          Map.of(),
          "a JobSet patch's metadata (labels and annotations only)");
      for (var field : List.of("labels", "annotations")) {
        nodes
            .stringMap(meta.get(field), at(at(p, "metadata"), field))
            .forEach((k, v) -> jobSet.with(field).put(k, v));
      }
    }
    var jobSetSpec = nodes.object(template.get("spec"), at(p, "spec"));
    if (jobSetSpec == null) {
      return;
    }
    p = at(p, "spec");
    nodes.onlyKnown(jobSetSpec, p, Set.of("replicatedJobs"), Map.of(), "a JobSet spec patch");
    var jobs = jobSetSpec.get("replicatedJobs");
    if (absent(jobs)) {
      return;
    }
    if (!jobs.isArray()) {
      nodes.findings().refuse(at(p, "replicatedJobs"), "must be a list");
      return;
    }
    for (int j = 0; j < jobs.size(); j++) {
      var jp = at(at(p, "replicatedJobs"), j);
      var job = nodes.object(jobs.get(j), jp);
      if (job == null) {
        continue;
      }
      nodes.onlyKnown(job, jp, Set.of("name", "template"), Map.of(), "a replicated job patch");
      var name = nodes.text(job.get("name"), at(jp, "name"));
      if (name == null || name.isBlank()) {
        nodes.findings().refuse(at(jp, "name"), "is required: a runtime's job");
        continue;
      }
      var jobTemplate = nodes.object(job.get("template"), at(jp, "template"));
      if (jobTemplate == null) {
        continue;
      }
      var tp = at(jp, "template");
      nodes.onlyKnown(
          jobTemplate,
          tp,
          Set.of("spec"),
          Map.of(
              "metadata",
              "patches the Job's own labels and annotations, which Trainyard does not carry;"
                  + " patch the pods' metadata under spec.template.metadata"),
          "a Job template patch");
      var jobSpec = nodes.object(jobTemplate.get("spec"), at(tp, "spec"));
      if (jobSpec == null) {
        continue;
      }
      nodes.onlyKnown(jobSpec, at(tp, "spec"), Set.of("template"), Map.of(), "a Job spec patch");
      var pod = nodes.object(jobSpec.get("template"), at(at(tp, "spec"), "template"));
      if (pod == null) {
        continue;
      }
      var pp = at(at(tp, "spec"), "template");
      nodes.onlyKnown(pod, pp, Set.of("metadata", "spec"), Map.of(), "a pod template patch");
      var targets = JsonNodeFactory.instance.arrayNode();
      targets.addObject().put("name", name);
      add(
          targets,
          at(jp, "name"),
          nodes.object(pod.get("metadata"), at(pp, "metadata")),
          nodes.object(pod.get("spec"), at(pp, "spec")),
          at(pp, "spec"),
          nodes,
          result);
    }
  }

  /** Checks one entry's parts and adds it in the common form. */
  private static void add(
      JsonNode targetJobs,
      String targetsPath,
      ObjectNode metadata,
      ObjectNode spec,
      String specPath,
      NodeReader nodes,
      List<ObjectNode> result) {
    var entry = JsonNodeFactory.instance.objectNode();
    var targets = entry.putArray("targetJobs");
    if (absent(targetJobs) || !targetJobs.isArray() || targetJobs.isEmpty()) {
      nodes.findings().refuse(targetsPath, "must name at least one of the runtime's jobs");
    } else {
      for (int i = 0; i < targetJobs.size(); i++) {
        var t = targetJobs.get(i);
        if (!t.isObject()) {
          nodes
              .findings()
              .refuse(at(targetsPath, i), "must be {name: <one of the runtime's jobs>}");
          continue;
        }
        var name = nodes.text(t.get("name"), at(at(targetsPath, i), "name"));
        if (name == null || name.isBlank()) {
          nodes.findings().refuse(at(at(targetsPath, i), "name"), "is required: a runtime's job");
        } else {
          targets.addObject().put("name", name);
        }
      }
    }
    if (metadata != null && !metadata.isEmpty()) {
      nodes.onlyKnown(
          metadata,
          specPath.replaceFirst("\\.spec$", ".metadata"),
          Set.of("labels", "annotations"),
          Map.of(),
          "a pod patch's metadata (labels and annotations only)");
      entry.set("metadata", metadata.deepCopy());
    }
    if (spec != null && !spec.isEmpty()) {
      nodes.onlyKnown(spec, specPath, POD, Map.of(), "a TrainJob's pod patch");
      for (var list : List.of("containers", "initContainers")) {
        var containers = spec.get(list);
        if (containers != null && containers.isArray()) {
          for (int i = 0; i < containers.size(); i++) {
            var c = nodes.object(containers.get(i), at(at(specPath, list), i));
            if (c != null) {
              nodes.onlyKnown(
                  c, at(at(specPath, list), i), CONTAINER, Map.of(), "a container patch");
            }
          }
        }
      }
      entry.set("spec", spec.deepCopy());
    }
    result.add(entry);
  }

  /**
   * What {@code entries} (common form) say that {@code style} cannot, named under {@code path} (the
   * spec field the entries sit at, e.g. {@code spec.kubernetes.trainJob.podTemplateOverrides}).
   */
  static List<FieldError> unsupported(List<?> entries, String path, Style style) {
    var result = new ArrayList<FieldError>();
    if (style != Style.POD_SPEC_OVERRIDES) {
      return result;
    }
    for (int i = 0; i < entries.size(); i++) {
      if (!(entries.get(i) instanceof Map<?, ?> entry)) {
        continue;
      }
      var at = path + "[" + i + "]";
      if (entry.get("metadata") != null) {
        result.add(new FieldError(at + ".metadata", v20("pod labels and annotations")));
      }
      if (entry.get("spec") instanceof Map<?, ?> spec) {
        for (var key : spec.keySet()) {
          if (!V20_POD.contains(key.toString())) {
            result.add(new FieldError(at + ".spec." + key, v20(key.toString())));
          }
        }
        if (spec.get("containers") instanceof List<?> containers) {
          for (int c = 0; c < containers.size(); c++) {
            if (containers.get(c) instanceof Map<?, ?> m && m.containsKey("securityContext")) {
              result.add(
                  new FieldError(
                      at + ".spec.containers[" + c + "].securityContext",
                      v20("a container's securityContext")));
            }
          }
        }
      }
    }
    return result;
  }

  /**
   * What a pod template (the spec's, rendered as the {@code node} job's patch) says that {@code
   * podSpecOverrides} cannot.
   */
  static List<FieldError> unsupportedInPodTemplate(Map<String, Object> podTemplate, String path) {
    var result = new ArrayList<FieldError>();
    podTemplate.forEach(
        (key, value) -> {
          if (key.equals("metadata")) {
            result.add(new FieldError(path + ".metadata", v20("pod labels and annotations")));
          } else if (key.equals("containers") && value instanceof List<?> containers) {
            for (int c = 0; c < containers.size(); c++) {
              if (containers.get(c) instanceof Map<?, ?> m && m.containsKey("securityContext")) {
                result.add(
                    new FieldError(
                        path + ".containers[" + c + "].securityContext",
                        v20("a container's securityContext")));
              }
            }
          } else if (!V20_POD.contains(key)) {
            result.add(new FieldError(path + "." + key, v20(key)));
          }
        });
    return result;
  }

  private static String v20(String what) {
    return "this cluster's Kubeflow Trainer reads podSpecOverrides (v2.0), which cannot set "
        + what
        + "; leave it out or run on a cluster whose trainerPodPatches is podTemplateOverrides or"
        + " runtimePatches";
  }

  /**
   * The list for {@code entries} (common form) in {@code style}; with {@code runtimePatches}, the
   * JobSet's {@code labels} and {@code annotations} ({@code jobSet}, may be empty) in the first
   * patch's template metadata.
   */
  static ArrayNode write(List<ObjectNode> entries, Style style, ObjectNode jobSet) {
    var out = JsonNodeFactory.instance.arrayNode();
    switch (style) {
      case POD_TEMPLATE_OVERRIDES -> entries.forEach(e -> out.add(e.deepCopy()));
      case POD_SPEC_OVERRIDES ->
          entries.forEach(
              e -> {
                var flat = out.addObject();
                flat.set("targetJobs", e.get("targetJobs").deepCopy());
                if (e.has("spec")) {
                  flat.setAll((ObjectNode) e.get("spec").deepCopy());
                }
              });
      case RUNTIME_PATCHES -> {
        // replicatedJobs is a map keyed by name, and so is the patch list by manager: a job
        // patched twice goes to a second patch, applied after the first.
        var patches = new ArrayList<java.util.Map<String, ObjectNode>>();
        for (var e : entries) {
          for (var target : e.get("targetJobs")) {
            var name = target.get("name").asText();
            var patch = patches.stream().filter(p -> !p.containsKey(name)).findFirst().orElse(null);
            if (patch == null) {
              patch = new java.util.LinkedHashMap<>();
              patches.add(patch);
            }
            var pod = JsonNodeFactory.instance.objectNode();
            if (e.has("metadata")) {
              pod.set("metadata", e.get("metadata").deepCopy());
            }
            if (e.has("spec")) {
              pod.set("spec", e.get("spec").deepCopy());
            }
            patch.put(name, pod);
          }
        }
        if (patches.isEmpty() && !jobSet.isEmpty()) {
          patches.add(new java.util.LinkedHashMap<>());
        }
        for (int i = 0; i < patches.size(); i++) {
          var template =
              out.addObject()
                  .put("manager", i == 0 ? MANAGER : MANAGER + "-" + (i + 1))
                  .putObject("trainingRuntimeSpec")
                  .putObject("template");
          if (i == 0 && !jobSet.isEmpty()) {
            template.set("metadata", jobSet.deepCopy());
          }
          if (patches.get(i).isEmpty()) {
            continue;
          }
          var jobs = template.putObject("spec").putArray("replicatedJobs");
          patches
              .get(i)
              .forEach(
                  (name, pod) ->
                      jobs.addObject()
                          .put("name", name)
                          .putObject("template")
                          .putObject("spec")
                          .set("template", pod));
        }
      }
    }
    return out;
  }
}
