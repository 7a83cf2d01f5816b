package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleOverride;
import io.trainyard.spi.spec.TrainingJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where in a Kubeflow document a value of the spec it was converted into came from, so that an
 * error the spec's validator finds after conversion ({@code spec.resources.cpus} must be at most
 * 10,000) names the field the caller wrote ({@code
 * spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.limits.cpu}). Found by
 * looking at the document itself, as the readers read it: a replica type's count, its main
 * container's resources (limits before requests), the run policy, {@code nprocPerNode} / {@code
 * slotsPerWorker} / {@code numProcPerNode} and the elastic policy; a TrainJob's trainer; and a
 * value inside a {@code kubernetes.podTemplate}, which the reader carried from a replica type's pod
 * template (a role's from its own type, the job-wide one from the first type that has the same
 * value, a container or volume found by its name). A spec field with no such source keeps its own
 * name.
 */
public final class DocumentPaths {
  private static final Map<String, String> RESOURCE_KEYS =
      Map.of("cpus", "cpu", "memory", "memory", "gpus", "nvidia.com/gpu");

  private static final Map<String, String> RUN_POLICY =
      Map.of(
          "spec.maxRestarts", "backoffLimit",
          "spec.maxRuntime", "activeDeadlineSeconds",
          "spec.cleanup.ttlAfterFinished", "ttlSecondsAfterFinished");

  // spec.kubernetes.podTemplate.<key><rest> or spec.roles.<role>.kubernetes.podTemplate.<key><rest>
  private static final Pattern POD_TEMPLATE =
      Pattern.compile("spec\\.(?:roles\\.([a-z]+)\\.)?kubernetes\\.podTemplate\\.([A-Za-z]+)(.*)");
  private static final Pattern INDEX = Pattern.compile("\\[([0-9]{1,9})\\](.*)");

  private DocumentPaths() {}

  /** The spec the document converts to, read once and only when a pod-template path needs it. */
  private static final class Converted {
    private final JsonNode document;
    private TrainingJob job;
    private boolean read;

    Converted(JsonNode document) {
      this.document = document;
    }

    TrainingJob job() {
      if (!read) {
        read = true;
        try {
          job = new KubeflowReader().read(document).job();
        } catch (RuntimeException e) {
          job = null; // not convertible: the errors keep the spec's names
        }
      }
      return job;
    }
  }

  /**
   * Where a pod-template value came from: a role's template is its replica type's; a job-wide key
   * is every type's whose role does not override it, so the first of those is named. A container or
   * volume is found by name: the reader drops a main container that carries nothing and appends
   * {@code spec.volumes} to every template, so list positions can differ.
   */
  private static Optional<String> podTemplate(
      JsonNode document, KubeflowKind kind, Matcher m, JobSpec spec) {
    var specs = document.path("spec").path(kind.replicaSpecsField());
    var role = m.group(1);
    var key = m.group(2);
    var rest = m.group(3);
    Map<String, Object> converted;
    if (role != null) {
      var override = spec.roles().get(role);
      converted =
          override == null || override.kubernetes() == null
              ? Map.of()
              : override.kubernetes().podTemplate();
    } else {
      converted = spec.kubernetes() == null ? Map.of() : spec.kubernetes().podTemplate();
      role =
          spec.replicas().keySet().stream()
              .filter(r -> !overrides(spec.roles().get(r), key))
              .findFirst()
              .orElse(null);
    }
    var type = role == null ? Optional.<String>empty() : type(kind, specs, role);
    if (type.isEmpty()) {
      return Optional.empty();
    }
    var template = "spec." + kind.replicaSpecsField() + "." + type.get() + ".template";
    if (key.equals("metadata")) {
      return Optional.of(template + ".metadata" + rest);
    }
    var index = INDEX.matcher(rest);
    if ((key.equals("containers") || key.equals("volumes")) && index.matches()) {
      var name = nameAt(converted.get(key), Integer.parseInt(index.group(1)));
      var podSpec = specs.path(type.get()).path("template").path("spec");
      var found = indexOf(podSpec.path(key), name);
      if (found >= 0) {
        return Optional.of(template + ".spec." + key + "[" + found + "]" + index.group(2));
      }
      found = key.equals("volumes") ? indexOf(document.path("spec").path("volumes"), name) : -1;
      if (found >= 0) {
        return Optional.of("spec.volumes[" + found + "]" + index.group(2));
      }
    }
    return Optional.of(template + ".spec." + key + rest);
  }

  private static boolean overrides(RoleOverride override, String key) {
    return override != null
        && override.kubernetes() != null
        && override.kubernetes().podTemplate().containsKey(key);
  }

  private static String nameAt(Object list, int index) {
    return list instanceof List<?> l
            && index < l.size()
            && l.get(index) instanceof Map<?, ?> entry
            && entry.get("name") instanceof String name
        ? name
        : null;
  }

  private static int indexOf(JsonNode list, String name) {
    for (int i = 0; name != null && i < list.size(); i++) {
      if (name.equals(list.get(i).path("name").asText(null))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * {@code errors} with each field the document's own where it has one; the message then says which
   * spec field the value became.
   */
  public static List<FieldError> of(JsonNode document, List<FieldError> errors) {
    var mapped = new ArrayList<FieldError>(errors.size());
    var converted = new Converted(document);
    for (var error : errors) {
      var source = source(document, error.field(), converted);
      mapped.add(
          source.isEmpty() || source.get().equals(error.field())
              ? error
              : new FieldError(
                  source.get(), error.message() + " (as " + error.field() + " once converted)"));
    }
    return mapped;
  }

  /** The document path the spec field {@code field} was read from, if it has one. */
  static Optional<String> source(JsonNode document, String field) {
    return source(document, field, new Converted(document));
  }

  private static Optional<String> source(JsonNode document, String field, Converted converted) {
    if (document == null || field == null) {
      return Optional.empty();
    }
    if (TrainJobReader.isTrainJobDocument(document)) {
      return trainJob(document, field);
    }
    var kind = KubeflowKind.fromKind(document.path("kind").asText(""));
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    var spec = document.path("spec");
    var specsPath = "spec." + kind.get().replicaSpecsField();
    var specs = spec.path(kind.get().replicaSpecsField());
    var podTemplate = POD_TEMPLATE.matcher(field);
    if (podTemplate.matches()) {
      return Optional.ofNullable(converted.job())
          .flatMap(job -> podTemplate(document, kind.get(), podTemplate, job.spec()));
    }
    // Only to a field the document has: a value the reader defaulted keeps the spec's name.
    var policy = RUN_POLICY.get(field);
    if (policy != null) {
      return spec.path("runPolicy").has(policy)
          ? Optional.of("spec.runPolicy." + policy)
          : Optional.empty();
    }
    if (field.equals("spec.processesPerReplica")) {
      return java.util.stream.Stream.of("slotsPerWorker", "nprocPerNode")
          .filter(spec::has)
          .findFirst()
          .map(name -> "spec." + name);
    }
    if ((field.equals("spec.elastic") || field.startsWith("spec.elastic."))
        && spec.has("elasticPolicy")) {
      return Optional.of("spec.elasticPolicy" + field.substring("spec.elastic".length()));
    }
    if (field.equals("spec.replicas") || field.equals("spec")) {
      return Optional.of(specsPath);
    }
    var parts = field.split("\\.");
    if (parts.length == 3 && parts[1].equals("replicas")) {
      return type(kind.get(), specs, parts[2]).map(t -> specsPath + "." + t + ".replicas");
    }
    // spec.resources.<f> (the same for every replica type) or spec.roles.<role>.resources.<f>
    String role = null;
    String resource = null;
    if (parts.length == 3 && parts[1].equals("resources")) {
      resource = parts[2];
    } else if (parts.length == 5 && parts[1].equals("roles") && parts[3].equals("resources")) {
      role = parts[2];
      resource = parts[4];
    }
    var key = resource == null ? null : RESOURCE_KEYS.get(resource);
    if (key == null) {
      return Optional.empty();
    }
    var types = new ArrayList<String>();
    if (role != null) {
      type(kind.get(), specs, role).ifPresent(types::add);
    } else {
      specs.fieldNames().forEachRemaining(types::add);
    }
    for (var type : types) {
      var containers = specs.path(type).path("template").path("spec").path("containers");
      for (int i = 0; i < containers.size(); i++) {
        var container = containers.get(i);
        var main =
            kind.get() == KubeflowKind.MPI_JOB
                ? i == 0
                : kind.get().containerName().equals(container.path("name").asText(null));
        if (!main) {
          continue;
        }
        var at = specsPath + "." + type + ".template.spec.containers[" + i + "].resources";
        var found = resourcePath(container.path("resources"), at, key);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> trainJob(JsonNode document, String field) {
    var trainer = document.path("spec").path("trainer");
    var parts = field.split("\\.");
    if (parts.length == 3 && parts[1].equals("replicas")) {
      return Optional.of("spec.trainer.numNodes");
    }
    if (field.equals("spec.processesPerReplica")) {
      return Optional.of("spec.trainer.numProcPerNode");
    }
    var resource =
        parts.length == 3 && parts[1].equals("resources")
            ? parts[2]
            : parts.length == 5 && parts[3].equals("resources") ? parts[4] : null;
    var key = resource == null ? null : RESOURCE_KEYS.get(resource);
    return key == null
        ? Optional.empty()
        : resourcePath(trainer.path("resourcesPerNode"), "spec.trainer.resourcesPerNode", key);
  }

  private static Optional<String> resourcePath(JsonNode resources, String at, String key) {
    for (var side : List.of("limits", "requests")) {
      if (resources.path(side).has(key)) {
        return Optional.of(at + "." + side + "." + key);
      }
    }
    return Optional.empty();
  }

  /** The document's replica type for {@code role}: a TFJob's Master is read as its chief. */
  private static Optional<String> type(KubeflowKind kind, JsonNode specs, String role) {
    String type;
    try {
      type = kind.replicaType(role);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!specs.has(type) && kind == KubeflowKind.TF_JOB && role.equals("chief")) {
      type = "Master";
    }
    return specs.has(type) ? Optional.of(type) : Optional.empty();
  }
}
