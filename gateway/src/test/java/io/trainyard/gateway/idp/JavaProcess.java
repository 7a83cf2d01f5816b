package io.trainyard.gateway.idp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program of the test classpath run as its own process, the way a person runs it: its own JVM,
 * environment, standard input and exit code. Output is collected as it comes, so a test can read
 * what a still-running program has printed (a device code, say).
 */
public final class JavaProcess {
  /** What a finished program did. */
  public record Result(int exitCode, String stdout, String stderr) {
    public String all() {
      return stdout + stderr;
    }
  }

  private final Process process;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Thread outReader;
  private final Thread errReader;

  private JavaProcess(Process process) {
    this.process = process;
    this.outReader = copy(process.getInputStream(), out);
    this.errReader = copy(process.getErrorStream(), err);
  }

  /**
   * @param env added to a minimal environment (PATH and HOME only), so that nothing of the build's
   *     environment, such as a TRAINYARD_TOKEN, leaks in
   * @param stdin written to the program's standard input, which is then closed; null for none
   */
  public static JavaProcess start(
      String mainClass, List<String> args, Map<String, String> env, String stdin, Path workDir) {
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add(mainClass);
    command.addAll(args);
    var builder = new ProcessBuilder(command).directory(workDir.toFile());
    var environment = builder.environment();
    var path = environment.get("PATH");
    environment.clear();
    environment.put("PATH", path == null ? "/usr/bin:/bin" : path);
    environment.put("HOME", workDir.toString());
    environment.putAll(env);
    try {
      var process = builder.start();
      if (stdin != null) {
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      process.getOutputStream().close();
      return new JavaProcess(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs to the end. */
  public static Result run(
      String mainClass, List<String> args, Map<String, String> env, String stdin, Path workDir) {
    return start(mainClass, args, env, stdin, workDir).await(Duration.ofSeconds(120));
  }

  /** What it has printed on stdout so far. */
  public String stdoutSoFar() {
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  /** Sends a signal as a terminal would, e.g. {@code INT} for Ctrl-C. */
  public void signal(String name) {
    try {
      var kill =
          new ProcessBuilder("kill", "-s", name, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("kill -s " + name + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public Result await(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "still running after " + timeout + "; printed:\n" + stdoutSoFar() + errSoFar());
      }
      outReader.join(5000);
      errReader.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return new Result(process.exitValue(), stdoutSoFar(), errSoFar());
  }

  private String errSoFar() {
    synchronized (err) {
      return err.toString(StandardCharsets.UTF_8);
    }
  }

  private static Thread copy(InputStream from, ByteArrayOutputStream to) {
    var thread =
        new Thread(
            () -> {
              var buffer = new byte[4096];
              try (from) {
                for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                  synchronized (to) {
                    to.write(buffer, 0, n);
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
            },
            "process-output");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
