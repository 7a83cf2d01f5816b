package io.trainyard.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from and writes to outside its arguments, passed in so that tests run the real
 * program in-process.
 */
record Terminal(PrintStream out, PrintStream err, Map<String, String> env, Path workDir) {

  static Terminal system() {
    return new Terminal(System.out, System.err, System.getenv(), Path.of("").toAbsolutePath());
  }
}
