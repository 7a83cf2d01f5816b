package io.trainyard.backend.local;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.spec.SecretRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Resolves {@code secretEnv} references from files {@code <dir>/<secret>/<key>}. Values are read
 * when a replica starts and handed to the process only: never logged, never written elsewhere.
 */
final class LocalSecrets {
  // The spec validator allows '.', so "..": refuse names that would leave the directory.
  private static final Pattern NAME = Pattern.compile("[-._a-zA-Z0-9]+");

  private final Path dir;

  LocalSecrets(Path dir) {
    this.dir = dir;
  }

  /**
   * The value of every variable in {@code secretEnv}.
   *
   * @throws BackendException.Rejected a secret or key is missing or unreadable; names it, never a
   *     value
   */
  Map<String, String> resolve(Map<String, SecretRef> secretEnv) {
    var values = new LinkedHashMap<String, String>();
    secretEnv.forEach((variable, ref) -> values.put(variable, read(variable, ref)));
    return values;
  }

  private String read(String variable, SecretRef ref) {
    if (!safeName(ref.secret()) || !safeName(ref.key())) {
      throw rejected(variable, ref, "is not a valid secret/key name", null);
    }
    var file = dir.resolve(ref.secret()).resolve(ref.key());
    if (!Files.isRegularFile(file)) {
      throw rejected(variable, ref, "is not in " + dir, null);
    }
    try {
      return stripFinalNewline(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw rejected(variable, ref, "cannot be read from " + dir, e);
    }
  }

  private static boolean safeName(String name) {
    return NAME.matcher(name).matches() && !name.equals(".") && !name.equals("..");
  }

  // `echo value > file` and most editors end the file with a newline that is not part of the
  // secret; an API key with a trailing newline is nearly always a mistake.
  private static String stripFinalNewline(String value) {
    if (value.endsWith("\r\n")) {
      return value.substring(0, value.length() - 2);
    }
    return value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
  }

  private static BackendException.Rejected rejected(
      String variable, SecretRef ref, String what, Throwable cause) {
    return new BackendException.Rejected(
        "secret '"
            + ref.secret()
            + "' key '"
            + ref.key()
            + "' (for "
            + variable
            + ") "
            + what
            + ": the local backend reads <secretsDir>/<secret>/<key>",
        cause);
  }
}
