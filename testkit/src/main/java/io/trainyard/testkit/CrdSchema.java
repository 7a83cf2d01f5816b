package io.trainyard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a document against a CRD's OpenAPI schema the way the API server's structural validation
 * would: {@code type}, {@code format} (int32/int64 ranges), {@code required}, {@code properties},
 * {@code additionalProperties}, {@code items}, {@code enum}, {@code pattern}, int-or-string. A
 * field the schema does not declare is an error unless {@code x-kubernetes-preserve-unknown-fields}
 * covers it (the API server would prune it, or refuse it under strict field validation). The
 * schemas are trimmed copies of the published CRDs on the test class path (each file says its
 * source); {@code $ref} loads another file of the same directory (the only addition to the schema
 * language). The object's {@code metadata} is the API server's ObjectMeta, not the CRD's. Keywords
 * it does not read (lengths, bounds, CEL rules) are not checked.
 */
public final class CrdSchema {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final String directory;
  private final Map<String, JsonNode> files = new HashMap<>();

  /**
   * @param directory the class-path directory of the schema files, e.g. {@code "/crds/"}
   */
  public CrdSchema(String directory) {
    this.directory = directory.endsWith("/") ? directory : directory + "/";
  }

  /** Every way {@code document} breaks the schema in {@code file}, as {@code "path: problem"}. */
  public List<String> check(String file, JsonNode document) {
    var errors = new ArrayList<String>();
    check(load(file), document, "", errors);
    return errors;
  }

  private void check(JsonNode schema, JsonNode value, String path, List<String> errors) {
    if (schema.has("$ref")) {
      schema = load(schema.get("$ref").asText());
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        errors.add(path + ": must be an integer or a string");
      } else if (value.isTextual()) {
        pattern(schema, value, path, errors);
      }
      return;
    }
    switch (schema.path("type").asText()) {
      case "object" -> object(schema, value, path, errors);
      case "array" -> {
        if (!value.isArray()) {
          errors.add(path + ": must be an array");
          return;
        }
        for (int i = 0; i < value.size(); i++) {
          check(schema.get("items"), value.get(i), path + "[" + i + "]", errors);
        }
      }
      case "string" -> {
        if (!value.isTextual()) {
          errors.add(path + ": must be a string");
        } else {
          pattern(schema, value, path, errors);
        }
      }
      case "integer" -> integer(schema, value, path, errors);
      case "number" -> {
        if (!value.isNumber()) {
          errors.add(path + ": must be a number");
        }
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          errors.add(path + ": must be a boolean");
        }
      }
      default -> errors.add(path + ": the schema has no type here (" + schema + ")");
    }
    if (schema.has("enum") && !contains(schema.get("enum"), value)) {
      errors.add(path + ": must be one of " + schema.get("enum"));
    }
  }

  private void object(JsonNode schema, JsonNode value, String path, List<String> errors) {
    if (!value.isObject()) {
      errors.add(path + ": must be an object");
      return;
    }
    for (var required : schema.path("required")) {
      if (!value.has(required.asText())) {
        errors.add(at(path, required.asText()) + ": is required");
      }
    }
    if (path.equals("metadata")) {
      return; // ObjectMeta: the API server's own schema, not the CRD's
    }
    var preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
    for (var field : value.properties()) {
      if (field.getValue().isNull()) {
        continue; // the API server prunes a null of a field that is not nullable before validating
      }
      var at = at(path, field.getKey());
      var declared = schema.path("properties").get(field.getKey());
      if (declared != null) {
        check(declared, field.getValue(), at, errors);
      } else if (schema.has("additionalProperties")) {
        check(schema.get("additionalProperties"), field.getValue(), at, errors);
      } else if (!preserve) {
        errors.add(at + ": is not in the schema");
      }
    }
  }

  private static void integer(JsonNode schema, JsonNode value, String path, List<String> errors) {
    if (!value.isIntegralNumber()) {
      errors.add(path + ": must be an integer");
    } else if (schema.path("format").asText().equals("int32") && !value.canConvertToInt()) {
      errors.add(path + ": must fit in 32 bits");
    } else if (!value.canConvertToLong()) {
      errors.add(path + ": must fit in 64 bits");
    }
  }

  private static void pattern(JsonNode schema, JsonNode value, String path, List<String> errors) {
    if (schema.has("pattern")
        && !Pattern.compile(schema.get("pattern").asText()).matcher(value.asText()).find()) {
      errors.add(path + ": '" + value.asText() + "' does not match " + schema.get("pattern"));
    }
  }

  private static boolean contains(JsonNode values, JsonNode value) {
    for (var v : values) {
      if (v.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static String at(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  private JsonNode load(String file) {
    return files.computeIfAbsent(
        file,
        name -> {
          try (var in = CrdSchema.class.getResourceAsStream(directory + name)) {
            if (in == null) {
              throw new IllegalStateException("no schema file " + directory + name);
            }
            return YAML.readTree(in);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
