package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cached login of the user running the CLI: {@code token.json} in {@code
 * $TRAINYARD_CONFIG_DIR}, else {@code $XDG_CONFIG_HOME/trainyard}, else {@code
 * ~/.config/trainyard}. The file holds credentials, so it is readable by its owner only (mode 0600,
 * in a 0700 directory) and is replaced atomically, never left half-written.
 */
final class TokenCache {
  static final String FILE_NAME = "token.json";
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_ONLY_DIR =
      PosixFilePermissions.fromString("rwx------");

  private final Path file;
  private final ObjectMapper json;

  TokenCache(Path file) {
    this.file = file;
    this.json = new ObjectMapper();
  }

  /** The cache of this environment's user, or empty when the environment names no home. */
  static Optional<TokenCache> of(Map<String, String> env) {
    var dir = env.get("TRAINYARD_CONFIG_DIR");
    if (blank(dir)) {
      var xdg = env.get("XDG_CONFIG_HOME");
      var home = env.get("HOME");
      dir =
          !blank(xdg)
              ? Path.of(xdg, "trainyard").toString()
              : blank(home) ? null : Path.of(home, ".config", "trainyard").toString();
    }
    return dir == null
        ? Optional.empty()
        : Optional.of(new TokenCache(Path.of(dir).resolve(FILE_NAME)));
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  Path file() {
    return file;
  }

  /** The cached login, or empty if there is none. */
  Optional<StoredLogin> load() {
    try {
      if (isPosix()
          && Files.exists(file)
          && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
        // Someone widened it; tokens must not be readable by others.
        Files.setPosixFilePermissions(file, OWNER_ONLY);
      }
      return Optional.of(fromJson(json.readTree(Files.readString(file))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (JsonProcessingException | DateTimeParseException | IllegalArgumentException e) {
      throw CliException.failed(
          file + " is not a Trainyard login; delete it and run `trainyard login`");
    } catch (IOException e) {
      throw CliException.failed("cannot read " + file + ": " + e.getMessage());
    }
  }

  void save(StoredLogin login) {
    var dir = file.toAbsolutePath().getParent();
    try {
      if (isPosix()) {
        if (!Files.isDirectory(dir)) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        }
        var tmp =
            Files.createTempFile(
                dir, ".token", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        write(tmp, login);
      } else {
        Files.createDirectories(dir);
        write(Files.createTempFile(dir, ".token", ".tmp"), login);
      }
    } catch (IOException e) {
      throw CliException.failed("cannot write " + file + ": " + e.getMessage());
    }
  }

  private void write(Path tmp, StoredLogin login) throws IOException {
    try {
      Files.writeString(tmp, json.writeValueAsString(toJson(login)), StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private JsonNode toJson(StoredLogin login) {
    var node = json.createObjectNode();
    node.put("issuer", login.issuer());
    node.put("clientId", login.clientId());
    node.put("tokenEndpoint", login.tokenEndpoint());
    node.put("username", login.username());
    node.put("accessToken", login.accessToken());
    node.put("accessTokenExpiresAt", login.accessTokenExpiresAt().toString());
    node.put("refreshToken", login.refreshToken());
    node.put(
        "refreshTokenExpiresAt",
        login.refreshTokenExpiresAt() == null ? null : login.refreshTokenExpiresAt().toString());
    return node;
  }

  private static StoredLogin fromJson(JsonNode node) {
    var refreshExpires = text(node, "refreshTokenExpiresAt");
    return new StoredLogin(
        required(node, "issuer"),
        required(node, "clientId"),
        required(node, "tokenEndpoint"),
        text(node, "username"),
        required(node, "accessToken"),
        Instant.parse(required(node, "accessTokenExpiresAt")),
        text(node, "refreshToken"),
        refreshExpires == null ? null : Instant.parse(refreshExpires));
  }

  private static String required(JsonNode node, String field) {
    var value = text(node, field);
    if (value == null) {
      throw new IllegalArgumentException("no " + field);
    }
    return value;
  }

  private static String text(JsonNode node, String field) {
    var value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  /** Forgets the login; returns whether there was one. */
  boolean delete() {
    try {
      return Files.deleteIfExists(file);
    } catch (IOException e) {
      throw CliException.failed("cannot delete " + file + ": " + e.getMessage());
    }
  }

  private boolean isPosix() {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
