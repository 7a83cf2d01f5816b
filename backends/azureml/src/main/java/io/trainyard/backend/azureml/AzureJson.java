package io.trainyard.backend.azureml;

import com.azure.json.JsonProviders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * JSON as plain maps and lists, through azure-json (the SDK's own JSON library), so the module
 * needs no JSON library of its own and ARM bodies stay visible as the data they are.
 */
final class AzureJson {
  private AzureJson() {}

  static byte[] write(Object value) {
    var out = new ByteArrayOutputStream();
    try (var writer = JsonProviders.createWriter(out)) {
      writer.writeUntyped(value);
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A JSON object as a map; an empty body or a non-object gives an empty map. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> readObject(byte[] body) {
    if (body == null || body.length == 0) {
      return Map.of();
    }
    try (var reader = JsonProviders.createReader(body)) {
      reader.nextToken();
      var value = reader.readUntyped();
      return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    } catch (IOException | IllegalStateException e) {
      throw new IllegalArgumentException("not a JSON object: " + e.getMessage(), e);
    }
  }

  /** The object at {@code path} (keys), or an empty map when any step is missing or not one. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Map<String, Object> root, String... path) {
    Object at = root;
    for (var key : path) {
      if (!(at instanceof Map<?, ?> m)) {
        return Map.of();
      }
      at = m.get(key);
    }
    return at instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  /** The string at {@code key} of {@code object}, or null. */
  static String string(Map<String, Object> object, String key) {
    var value = object.get(key);
    return value == null ? null : value.toString();
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Map<String, Object> object, String key) {
    var value = object.get(key);
    return value instanceof List<?> l ? (List<Object>) l : List.of();
  }
}
