package io.trainyard.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reading and rewriting the files of an export the way a tamperer would. */
final class ExportFixture {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private ExportFixture() {}

  static DigestSigner newSigner() {
    return DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
  }

  static List<String> lines(Path file) {
    try {
      return new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path file, List<String> lines) {
    try {
      Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode tree(String line) {
    try {
      return (ObjectNode) MAPPER.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Index in {@code lines} of the record with {@code seq}. */
  static int indexOf(List<String> lines, long seq) {
    for (int i = 0; i < lines.size(); i++) {
      if (tree(lines.get(i)).get("seq").asLong() == seq) {
        return i;
      }
    }
    throw new IllegalArgumentException("no seq " + seq);
  }

  static Path copy(Path from, Path to) {
    try (Stream<Path> files = Files.list(from)) {
      Files.createDirectories(to);
      for (var file : files.toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
