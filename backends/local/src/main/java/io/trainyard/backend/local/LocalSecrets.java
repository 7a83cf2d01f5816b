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
 * Resolves {@code secretEnv} references from files {@code <dir>/<team>/<secret>/<key>}: each team
 * has its own, so no team's job reads another's. Values are read when a replica starts and handed
 * to the process only: never logged, never written elsewhere. Messages name the secret, the key and
 * the relative layout, never a value or the gateway's absolute paths.
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
  Map<String, String> resolve(String team, Map<String, SecretRef> secretEnv) {
    var values = new LinkedHashMap<String, String>();
    secretEnv.forEach((variable, ref) -> values.put(variable, read(team, variable, ref)));
    return values;
  }

  private String read(String team, String variable, SecretRef ref) {
    if (!safeName(ref.secret()) || !safeName(ref.key())) {
      throw rejected(variable, ref, "is not a valid secret/key name", null);
    }
    if (team == null || !safeName(team)) {
      throw rejected(variable, ref, "cannot be looked up: the job has no valid team", null);
    }
    var file = dir.resolve(team).resolve(ref.secret()).resolve(ref.key());
    if (!Files.isRegularFile(file)) {
      if (Files.isRegularFile(dir.resolve(ref.secret()).resolve(ref.key()))) {
        // The layout before secrets were per team: shared by every team, so not used any more.
        throw rejected(
            variable,
            ref,
            "is only at the old shared path <secretsDir>/"
                + ref.secret()
                + "/"
                + ref.key()
                + "; move it to <secretsDir>/"
                + team
                + "/"
                + ref.secret()
                + "/"
                + ref.key(),
            null);
      }
      throw rejected(variable, ref, "is not in <secretsDir>/" + team, null);
    }
    try {
      return stripFinalNewline(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw rejected(variable, ref, "cannot be read", null);
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
            + ": the local backend reads <secretsDir>/<team>/<secret>/<key>",
        cause);
  }
}
