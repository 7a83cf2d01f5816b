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
 *
 * @param tty whether a person watches {@code out} on a terminal that understands cursor movement
 *     (then live views redraw in place; else they print one line per change)
 */
record Terminal(
    PrintStream out,
    PrintStream err,
    Map<String, String> env,
    Path workDir,
    InputStream in,
    boolean tty) {

  /** A terminal with nothing on standard input, not a TTY. */
  Terminal(PrintStream out, PrintStream err, Map<String, String> env, Path workDir) {
    this(out, err, env, workDir, new ByteArrayInputStream(new byte[0]));
  }

  /** Not a TTY. */
  Terminal(
      PrintStream out, PrintStream err, Map<String, String> env, Path workDir, InputStream in) {
    this(out, err, env, workDir, in, false);
  }

  static Terminal system() {
    var env = System.getenv();
    // Java 17 has a console only when both standard input and output are terminals.
    boolean tty = System.console() != null && !"dumb".equals(env.get("TERM"));
    return new Terminal(System.out, System.err, env, Path.of("").toAbsolutePath(), System.in, tty);
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
