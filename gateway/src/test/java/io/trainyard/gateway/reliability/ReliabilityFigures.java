package io.trainyard.gateway.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures a reliability test measured, printed and appended to {@code
 * target/reliability-figures.txt} (one line per run), where docs/reliability.md's numbers come
 * from.
 */
final class ReliabilityFigures {
  private final String scenario;
  private final Map<String, Object> values = new LinkedHashMap<>();

  ReliabilityFigures(String scenario) {
    this.scenario = scenario;
  }

  ReliabilityFigures put(String name, Object value) {
    values.put(name, value);
    return this;
  }

  /** Prints and records the line. */
  void publish() {
    var line =
        Instant.now()
            + " "
            + scenario
            + " "
            + values.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    System.out.println("FIGURES " + line);
    try {
      Files.createDirectories(Path.of("target"));
      Files.writeString(
          Path.of("target", "reliability-figures.txt"),
          line + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A size from a system property ({@code -Pstress} sets the full ones), else the reduced one. */
  static int size(String property, int reduced) {
    return Integer.getInteger(property, reduced);
  }
}
