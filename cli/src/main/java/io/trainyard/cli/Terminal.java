package io.trainyard.cli;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from and writes to outside its arguments, passed in so that tests run the real
 * program in-process.
 */
record Terminal(
    PrintStream out, PrintStream err, Map<String, String> env, Path workDir, InputStream in) {

  /** A terminal with nothing on standard input. */
  Terminal(PrintStream out, PrintStream err, Map<String, String> env, Path workDir) {
    this(out, err, env, workDir, new ByteArrayInputStream(new byte[0]));
  }

  static Terminal system() {
    return new Terminal(
        System.out, System.err, System.getenv(), Path.of("").toAbsolutePath(), System.in);
  }

  /**
   * A secret typed without echo when a person is at the console, else the first line of standard
   * input (a pipe); null when there is none.
   */
  String readSecret(String prompt) {
    var console = System.console();
    if (in == System.in && console != null) {
      char[] typed = console.readPassword("%s", prompt);
      return typed == null || typed.length == 0 ? null : new String(typed);
    }
    try {
      var line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
      return line == null || line.isEmpty() ? null : line;
    } catch (IOException e) {
      return null;
    }
  }
}
