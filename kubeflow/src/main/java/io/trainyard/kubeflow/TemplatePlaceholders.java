package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.spi.spec.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds template placeholders left in a document that was meant to be rendered first: {@code
 * $NUM_NODES} and {@code ${IMAGE}} (envsubst, shell heredocs), {@code {{ .Values.image }}} (Helm,
 * Go templates), {@code {{ image }}} and {@code {% ... %}} (Jinja). Each would otherwise be refused
 * as a wrong value ("must be a whole number") or, worse, accepted as a literal image or name.
 *
 * <p>Left alone, because they are expanded when the job runs: {@code $(VAR)} anywhere (Kubernetes
 * expands it in command, args and env); {@code $VAR} and {@code ${VAR}} in {@code command}, {@code
 * args} and env values (a shell or the program expands them); {@code {{x}}} without spaces in
 * command and args (a Python format string's escaped braces); anything in annotations (injectors
 * such as Vault's read Go templates from them).
 */
final class TemplatePlaceholders {
  private static final Pattern BRACES = Pattern.compile("\\{\\{.*?}}|\\{%.*?%}");
  private static final Pattern SPACED_BRACES =
      Pattern.compile("\\{\\{-?\\s.*?\\s-?}}|\\{%-?\\s.*?\\s-?%}");
  private static final Pattern DOLLAR =
      Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?}|\\$[A-Za-z_][A-Za-z0-9_]*");

  private TemplatePlaceholders() {}

  /** One error per string that holds a placeholder, naming its field; empty when none does. */
  static List<FieldError> find(JsonNode document) {
    var errors = new ArrayList<FieldError>();
    walk(document, "", "", errors);
    return errors;
  }

  private static void walk(JsonNode node, String path, String key, List<FieldError> errors) {
    if (node.isObject()) {
      if (key.equals("annotations")) {
        return;
      }
      node.properties().forEach(e -> walk(e.getValue(), at(path, e.getKey()), e.getKey(), errors));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), at(path, i), key, errors);
      }
    } else if (node.isTextual()) {
      var runTime =
          key.equals("command") || key.equals("args") || (key.equals("value") && inEnv(path));
      var text = node.textValue();
      var braces = (key.equals("command") || key.equals("args") ? SPACED_BRACES : BRACES);
      var m = braces.matcher(text);
      if (m.find()) {
        errors.add(
            new FieldError(
                path.isEmpty() ? "(document)" : path,
                "holds '"
                    + m.group()
                    + "', which looks like an unrendered template (Helm, Go or Jinja); render it"
                    + " (helm template, ...) and send the result"));
        return;
      }
      var d = DOLLAR.matcher(text);
      if (!runTime && d.find()) {
        errors.add(
            new FieldError(
                path.isEmpty() ? "(document)" : path,
                "holds '"
                    + d.group()
                    + "', which looks like an unrendered template variable; substitute it"
                    + " (envsubst, ...) and send the result"));
      }
    }
  }

  private static boolean inEnv(String path) {
    return path.matches(".*\\.env\\[[0-9]+]\\.value");
  }
}
