package io.trainyard.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's 1-minute load average, written beside every figure (these machines are noisy). */
public final class LoadAverage {
  private LoadAverage() {}

  /** From {@code /proc/loadavg}; NaN where there is none. */
  public static double now() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
