package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.Resources;
import io.trainyard.spi.spec.SecretRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the framework's container of one replica: what the spec models (image, command, args, env,
 * secret env, resources) and what only a pod template can carry ({@link #CARRIED}), refusing the
 * rest by path.
 */
final class ContainerReader {
  /** Container fields that shape where and as whom the process runs: kept in the pod template. */
  static final Set<String> CARRIED =
      Set.of(
          "volumeMounts",
          "volumeDevices",
          "securityContext",
          "workingDir",
          "imagePullPolicy",
          "ports",
          "terminationMessagePath",
          "terminationMessagePolicy");

  private static final Set<String> MODELLED =
      Set.of("name", "image", "command", "args", "env", "resources");
  private static final String RESTARTS =
      "restarts containers outside the replica's restartPolicy, which Trainyard counts and"
          + " follows; leave it out";
  private static final Map<String, String> REFUSED =
      Map.ofEntries(
          Map.entry(
              "lifecycle",
              "runs commands outside the job's command when a container starts or stops,"
                  + " which Trainyard neither starts nor audits; put them in the command"),
          Map.entry("livenessProbe", RESTARTS),
          Map.entry("readinessProbe", "gates traffic to a service; a training replica has none"),
          Map.entry("startupProbe", RESTARTS),
          Map.entry("restartPolicy", RESTARTS),
          Map.entry("restartPolicyRules", RESTARTS),
          Map.entry("resizePolicy", "resizes a running replica, which Trainyard cannot price"),
          Map.entry("stdin", "a training process reads no terminal; leave it out"),
          Map.entry("stdinOnce", "a training process reads no terminal; leave it out"),
          Map.entry("tty", "a training process reads no terminal; leave it out"),
          Map.entry(
              "envFrom",
              "imports variables Trainyard cannot see; name each one in env (a secret with"
                  + " valueFrom.secretKeyRef)"));
  private static final Map<String, String> VALUE_FROM_REFUSED =
      Map.of(
          "configMapKeyRef",
          "is not supported: only secretKeyRef (→ spec.secretEnv) is; write the value in value",
          "fieldRef",
          "is not supported: only secretKeyRef (→ spec.secretEnv) is; the pod's own fields"
              + " differ from backend to backend",
          "resourceFieldRef",
          "is not supported: only secretKeyRef (→ spec.secretEnv) is; read the replica's"
              + " resources from the spec",
          "fileKeyRef",
          "is not supported: only secretKeyRef (→ spec.secretEnv) is");
  private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  /**
   * The framework's container, split.
   *
   * @param command null when the document gives none (the image's entrypoint)
   * @param env plain variables, in document order
   * @param secretEnv secretKeyRef variables, in document order
   * @param envOrderMatters a value refers to another variable with {@code $(NAME)}, which
   *     Kubernetes expands only from variables defined earlier
   * @param carried the container entry for the pod template: its name and every carried field
   */
  record MainContainer(
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      Map<String, SecretRef> secretEnv,
      boolean envOrderMatters,
      Resources resources,
      ObjectNode carried) {

    /** The container's name in the document. */
    String name() {
      return carried.path("name").asText(null);
    }
  }

  private final NodeReader nodes;

  ContainerReader(NodeReader nodes) {
    this.nodes = nodes;
  }

  MainContainer read(ObjectNode container, String path) {
    var known = new java.util.HashSet<>(MODELLED);
    known.addAll(CARRIED);
    nodes.onlyKnown(container, path, known, REFUSED, "a Kubernetes container");
    var name = nodes.text(container.get("name"), at(path, "name"));
    if (name == null || name.isBlank()) {
      nodes.findings().refuse(at(path, "name"), "is required");
    }
    var image = nodes.text(container.get("image"), at(path, "image"));
    if (image == null || image.isBlank()) {
      nodes.findings().refuse(at(path, "image"), "is required");
    }
    var env = new LinkedHashMap<String, String>();
    var secretEnv = new LinkedHashMap<String, SecretRef>();
    var orderMatters = env(container.get("env"), at(path, "env"), env, secretEnv);
    Resources resources = null;
    var carried = JsonNodeFactory.instance.objectNode();
    carried.set("name", container.get("name"));
    var block = nodes.object(container.get("resources"), at(path, "resources"));
    if (block != null) {
      var read = ContainerResources.read(block, at(path, "resources"), nodes);
      resources = read.resources();
      if (read.verbatim() != null) {
        carried.set("resources", read.verbatim());
      }
    }
    container
        .properties()
        .forEach(
            e -> {
              if (CARRIED.contains(e.getKey())) {
                carried.set(e.getKey(), e.getValue().deepCopy());
              }
            });
    return new MainContainer(
        image,
        nodes.strings(container.get("command"), at(path, "command")),
        nodes.strings(container.get("args"), at(path, "args")),
        env,
        secretEnv,
        orderMatters,
        resources,
        carried);
  }

  /** Reads env into the two maps; true when a value refers to another variable. */
  boolean env(
      JsonNode list, String path, Map<String, String> env, Map<String, SecretRef> secretEnv) {
    if (absent(list)) {
      return false;
    }
    if (!list.isArray()) {
      nodes.findings().refuse(path, "must be a list of {name, value} entries");
      return false;
    }
    var references = new LinkedHashMap<String, String>(); // path → referring value
    for (int i = 0; i < list.size(); i++) {
      var at = at(path, i);
      var entry = nodes.object(list.get(i), at);
      if (entry == null) {
        continue;
      }
      nodes.onlyKnown(
          entry, at, Set.of("name", "value", "valueFrom"), Map.of(), "an environment variable");
      var name = nodes.text(entry.get("name"), at(at, "name"));
      if (name == null) {
        nodes.findings().refuse(at(at, "name"), "is required");
        continue;
      }
      if (env.containsKey(name) || secretEnv.containsKey(name)) {
        nodes.findings().refuse(at(at, "name"), "'" + name + "' is set twice");
        continue;
      }
      if (!absent(entry.get("valueFrom"))) {
        if (!absent(entry.get("value"))) {
          nodes.findings().refuse(at(at, "value"), "cannot be set together with valueFrom");
        }
        var ref = secretRef(entry.get("valueFrom"), at(at, "valueFrom"));
        if (ref != null) {
          secretEnv.put(name, ref);
        }
        continue;
      }
      // Kubernetes reads a missing value as the empty string; so does the spec.
      var value = nodes.text(entry.get("value"), at(at, "value"));
      env.put(name, value == null ? "" : value);
      if (value != null && REFERENCE.matcher(value).find()) {
        references.put(at(at, "value"), value);
      }
    }
    return referencesDefinedVariables(references, env, secretEnv);
  }

  private boolean referencesDefinedVariables(
      Map<String, String> references, Map<String, String> env, Map<String, SecretRef> secretEnv) {
    var any = false;
    for (var r : references.entrySet()) {
      var m = REFERENCE.matcher(r.getValue());
      while (m.find()) {
        var name = m.group(1);
        if (secretEnv.containsKey(name)) {
          // Secret variables render after the plain ones, so the reference would not expand.
          nodes
              .findings()
              .refuse(
                  r.getKey(),
                  "refers to the secret variable $("
                      + name
                      + "); Trainyard sets secret variables after plain ones, so refer to it"
                      + " from the command or args instead");
        }
        any |= env.containsKey(name);
      }
    }
    return any;
  }

  private SecretRef secretRef(JsonNode valueFrom, String path) {
    var source = nodes.object(valueFrom, path);
    if (source == null) {
      return null;
    }
    nodes.onlyKnown(source, path, Set.of("secretKeyRef"), VALUE_FROM_REFUSED, "valueFrom");
    if (source.isEmpty()) {
      nodes.findings().refuse(path, "names no source: use secretKeyRef");
    }
    var ref = nodes.object(source.get("secretKeyRef"), at(path, "secretKeyRef"));
    if (ref == null) {
      return null;
    }
    var at = at(path, "secretKeyRef");
    nodes.onlyKnown(ref, at, Set.of("name", "key", "optional"), Map.of(), "secretKeyRef");
    nodes.defaultOnly(
        ref.get("optional"),
        at(at, "optional"),
        BooleanNode.FALSE,
        "Trainyard's secret references are never optional; leave it out");
    var secret = nodes.text(ref.get("name"), at(at, "name"));
    var key = nodes.text(ref.get("key"), at(at, "key"));
    if (secret == null || secret.isBlank()) {
      nodes.findings().refuse(at(at, "name"), "is required: the secret's name");
    }
    if (key == null || key.isBlank()) {
      nodes.findings().refuse(at(at, "key"), "is required: the key in the secret");
    }
    return secret == null || secret.isBlank() || key == null || key.isBlank()
        ? null
        : new SecretRef(secret, key);
  }
}
