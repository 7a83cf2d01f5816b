package io.trainyard.backend.local;

import io.trainyard.spi.SecretScrubber;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;

/**
 * One attempt's disk limits, checked on its supervisor's tick: the scratch directory (as the
 * backend's scratch walker last measured it, {@link ScratchUsage}) and each replica's log and exit
 * file. Not thread-safe: used under the supervisor's monitor.
 */
final class DiskChecks {
  /**
   * How far a log may pass its limit before it is taken as written around the wrapper, which stops
   * after the line that reaches the limit: one line the reader serves, and some.
   */
  static final long LOG_SLACK = ReplicaLogReader.MAX_LINE + 64 * 1024;

  /** What a wrapper writes to its exit file is a code or a sandbox tool's complaint: far less. */
  static final long EXIT_FILE_LIMIT = 64 * 1024;

  /**
   * The attempt's disk limits, in bytes: its scratch directory's and each replica's log's.
   *
   * @param scratch {@link LocalConfig#scratchLimit()}
   * @param log {@link LocalConfig#logLimit()}
   */
  record Limits(long scratch, long log) {
    static Limits of(LocalConfig config) {
      return new Limits(config.scratchLimitBytes(), config.logLimitBytes());
    }
  }

  private final AttemptFiles files;
  private final AttemptPlan plan;
  private final Limits limits;
  private final Clock clock;
  private final Set<String> logsNotedFull = new HashSet<>();

  DiskChecks(AttemptFiles files, AttemptPlan plan, Limits limits, Clock clock) {
    this.files = files;
    this.plan = plan;
    this.limits = limits;
    this.clock = clock;
  }

  Limits limits() {
    return limits;
  }

  /** What is left of the replica's log limit, for its next run's wrapper. */
  long logBudget(String replica) {
    return limits.log() - sizeOf(files.logFile(replica));
  }

  /**
   * Why the attempt must fail for its disk use now, or null.
   *
   * @param usage the scratch directory as measured since the last tick; null when it was not
   * @param scrubber masks the job's secrets in what a failed measurement quotes
   */
  String problem(ScratchUsage usage, SecretScrubber scrubber) {
    var scratch = scratchProblem(usage, scrubber);
    return scratch != null ? scratch : logProblem();
  }

  private String scratchProblem(ScratchUsage usage, SecretScrubber scrubber) {
    if (usage == null) {
      return null; // not measured this tick
    }
    if (usage.overLimit()) {
      return "scratch directory grew past "
          + ScratchUsage.size(limits.scratch())
          + " (scratchLimit)";
    }
    if (usage.unmeasurable() != null) {
      return scrubber.scrub(
          "scratch directory could not be measured against scratchLimit: " + usage.unmeasurable());
    }
    return null;
  }

  /**
   * Notes, once per replica, that its log reached the limit (its wrapper keeps the rest of its
   * output out); a log well past it was written around the wrapper, and fails the attempt, as does
   * an exit file far bigger than any code.
   */
  private String logProblem() {
    for (var replica : plan.replicas()) {
      var name = replica.name();
      long size = sizeOf(files.logFile(name));
      if (size > limits.log() + LOG_SLACK) {
        return "the log of replica "
            + name
            + " grew past "
            + ScratchUsage.size(limits.log())
            + " (logLimit): written around the replica's wrapper";
      }
      if (sizeOf(files.exitFile(name)) > EXIT_FILE_LIMIT) {
        return "replica "
            + name
            + " wrote more than 64 KiB around its wrapper (to its exit code file)";
      }
      if (size >= limits.log() && logsNotedFull.add(name)) {
        var note =
            "the log of "
                + name
                + " reached "
                + ScratchUsage.size(limits.log())
                + " (logLimit): its later output is not kept";
        if (!files.hasNote(name, note)) {
          files.appendNote(name, clock.instant(), note);
        }
      }
    }
    return null;
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0; // not written yet
    }
  }
}
