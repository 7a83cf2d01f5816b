package io.trainyard.cli;

import static io.trainyard.cli.QuoteView.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A job followed until it ends, as {@code status ID --watch} and {@code submit --wait} show it. On
 * a TTY the view is redrawn in place (the job's details, or one progress line); otherwise one line
 * is printed per change (state, backend, attempt, restarts, reason), which logs and CI read well;
 * with {@code --output json}, the job as the gateway sent it, one line per change. Exit status from
 * the final state: 0 only for SUCCEEDED. Ctrl-C stops following and says how to cancel: the job
 * keeps running.
 */
final class LiveJob {
  /** "No timeout": long enough for any job, short enough for nanosecond arithmetic. */
  static final Duration FOREVER = Duration.ofDays(3650);

  private static final Duration TTY_PAUSE = Duration.ofSeconds(1);
  private static final Duration PIPE_PAUSE = Duration.ofSeconds(2);
  // Cursor to the start of the line, clear it; N lines up, clear to the end of the screen.
  private static final String CLEAR_LINE = "\r\033[K";

  /** How the job is drawn on a TTY. */
  enum Style {
    /** Its details ({@code status --watch}). */
    DETAILS,
    /** One progress line ({@code submit --wait}). */
    PROGRESS
  }

  private final GatewayClient client;
  private final Terminal terminal;
  private final CommandLine.Output output;

  LiveJob(GatewayClient client, Terminal terminal, CommandLine.Output output) {
    this.client = client;
    this.terminal = terminal;
    this.output = output;
  }

  /**
   * Follows the job until it ends or the timeout runs out.
   *
   * @return 0 when it SUCCEEDED
   * @throws CliException (exit 1) when it FAILED, was CANCELLED, or is still running at the timeout
   */
  int follow(String id, Duration timeout, Style style) {
    var out = terminal.out();
    boolean json = output == CommandLine.Output.JSON;
    boolean redraw = terminal.tty() && !json;
    long start = System.nanoTime();
    var lastSeen = new AtomicReference<String>("not yet seen");
    var hook = new Thread(() -> stopped(id, lastSeen.get(), redraw), "trainyard-ctrl-c");
    Runtime.getRuntime().addShutdownHook(hook);
    JobWatch.Outcome outcome;
    try {
      var drawn = new int[] {0};
      var lastChange = new AtomicReference<String>();
      outcome =
          new JobWatch(client)
              .untilEnded(
                  id,
                  timeout,
                  job -> {},
                  (job, raw) -> {
                    lastSeen.set(text(job, "state"));
                    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
                    String change = change(job);
                    boolean changed = !change.equals(lastChange.getAndSet(change));
                    if (redraw) {
                      drawn[0] = draw(out, job, elapsed, style, drawn[0]);
                    } else if (changed) {
                      out.println(json ? raw.strip().replace("\n", " ") : line(id, job, elapsed));
                    }
                    out.flush();
                  },
                  redraw ? TTY_PAUSE : PIPE_PAUSE);
      if (redraw && style == Style.PROGRESS) {
        out.println();
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down (Ctrl-C): the hook runs
      }
    }
    return outcome(id, outcome, timeout, Duration.ofNanos(System.nanoTime() - start));
  }

  private int outcome(String id, JobWatch.Outcome outcome, Duration timeout, Duration elapsed) {
    if (!outcome.ended()) {
      throw CliException.failed(
          "job "
              + id
              + " is still "
              + outcome.state()
              + " after "
              + HumanDuration.format(timeout)
              + "; it keeps running (`trainyard cancel "
              + id
              + "` cancels it)");
    }
    if (!"SUCCEEDED".equals(outcome.state())) {
      String reason = text(outcome.job(), "reason");
      throw CliException.failed(
          "job " + id + " " + outcome.state() + (reason == null ? "" : ": " + reason));
    }
    if (output == CommandLine.Output.TABLE) {
      var took = JobView.duration(outcome.job());
      terminal
          .out()
          .println(
              "job " + id + " SUCCEEDED in " + HumanDuration.format(took == null ? elapsed : took));
    }
    return ExitStatus.OK.code();
  }

  /** Redraws the view; returns how many lines it now takes. */
  private static int draw(
      PrintStream out, JsonNode job, Duration elapsed, Style style, int drawnBefore) {
    if (style == Style.PROGRESS) {
      out.print(CLEAR_LINE + progress(job, elapsed));
      return 1;
    }
    var lines = new ArrayList<>(JobView.details(job));
    lines.add("");
    lines.add(
        JobWatch.isEnded(text(job, "state"))
            ? "(ended)"
            : "watching for "
                + HumanDuration.format(elapsed.withNanos(0))
                + " — Ctrl-C stops watching; the job keeps running");
    if (drawnBefore > 0) {
      out.print("\r\033[" + drawnBefore + "A\033[J");
    }
    lines.forEach(out::println);
    return lines.size();
  }

  /** {@code RUNNING on local, attempt 1 — elapsed 12s}. */
  static String progress(JsonNode job, Duration elapsed) {
    return "job "
        + text(job, "id")
        + ": "
        + describe(job)
        + " — elapsed "
        + HumanDuration.format(elapsed.withNanos(0));
  }

  /** One line per change: {@code [12s] job ID: RUNNING on local, attempt 2 (reason)}. */
  static String line(String id, JsonNode job, Duration elapsed) {
    return "[" + HumanDuration.format(elapsed.withNanos(0)) + "] job " + id + ": " + describe(job);
  }

  private static String describe(JsonNode job) {
    var parts = new ArrayList<String>();
    String backend = text(job, "backend");
    String state = text(job, "state");
    var head = new StringBuilder(state == null ? "?" : state);
    if (backend != null) {
      head.append(" on ").append(backend);
    }
    parts.add(head.toString());
    int attempt = job.path("attempt").asInt(1);
    if (attempt > 1) {
      parts.add("attempt " + attempt);
    }
    int restarts = job.path("restarts").asInt(0);
    if (restarts > 0) {
      parts.add(restarts + " restart" + (restarts == 1 ? "" : "s"));
    }
    String text = String.join(", ", parts);
    String reason = text(job, "reason");
    return reason == null ? text : text + " (" + reason + ")";
  }

  /** What counts as a change worth a line: not the clock, only what the job is doing. */
  private static String change(JsonNode job) {
    return String.join(
        "|",
        List.of(
            String.valueOf(text(job, "state")),
            String.valueOf(text(job, "backend")),
            job.path("attempt").asText(""),
            job.path("restarts").asText(""),
            String.valueOf(text(job, "reason"))));
  }

  /** Ctrl-C: the job is not cancelled, and the user is told how to. */
  private void stopped(String id, String state, boolean redraw) {
    var err = terminal.err();
    if (redraw) {
      terminal.out().println();
      terminal.out().flush();
    }
    err.println(
        "stopped following job "
            + id
            + " ("
            + state
            + "); it keeps running. Cancel it with: trainyard cancel "
            + id);
    err.println("Follow it again with: trainyard status " + id + " --watch");
    err.flush();
  }
}
