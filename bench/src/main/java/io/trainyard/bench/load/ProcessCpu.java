package io.trainyard.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time a process has used so far, all its threads (living and ended), user and system:
 * fields 14 and 15 of {@code /proc/<pid>/stat}, in clock ticks of 10 ms ({@code CLK_TCK} is 100 on
 * Linux). Over a window of seconds at hundreds of requests a second that resolves a request's CPU
 * to within a per cent or so.
 */
public final class ProcessCpu {
  private static final long NANOS_PER_TICK = TimeUnit.MILLISECONDS.toNanos(10);

  private ProcessCpu() {}

  /** Nanoseconds of CPU process {@code pid} has used; -1 where {@code /proc} cannot say. */
  public static long nanos(long pid) {
    try {
      var stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) is in parentheses and may hold spaces: count after its end.
      var fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields[0] is field 3 (state), so utime (14) and stime (15) are fields[11] and fields[12].
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** This JVM's own CPU time so far (see {@link #nanos}). */
  public static long ownNanos() {
    return nanos(ProcessHandle.current().pid());
  }
}
