package io.trainyard.bench.load;

import java.time.Duration;
import java.util.Locale;

/**
 * One measured run of a scenario: answers per second within the window, their latency at p50 and
 * p99, the requests that failed, and the machine's 1-minute load average when it ended.
 *
 * @param serverCpuMicros the CPU the metered process (the gateway) used per answered request within
 *     the window, in µs; NaN when not metered ({@link LoadDriver#metering})
 * @param driverCpuMicros the same for the load driver's own process
 * @param firstError the first failure seen (status or exception), or null
 */
public record Sample(
    String name,
    int clients,
    long answered,
    long errors,
    double perSecond,
    Duration p50,
    Duration p99,
    double loadAverage,
    double serverCpuMicros,
    double driverCpuMicros,
    String firstError) {

  /** One line for a terminal or a Markdown table. */
  public String row() {
    return String.format(
        Locale.ROOT,
        "| %s | %d | %,.0f/s | %.2f ms | %.2f ms | %d | %.1f | %s | %s |",
        name,
        clients,
        perSecond,
        p50.toNanos() / 1e6,
        p99.toNanos() / 1e6,
        errors,
        loadAverage,
        micros(serverCpuMicros),
        micros(driverCpuMicros));
  }

  private static String micros(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%,.0f µs", value);
  }

  public static String header() {
    return "| scenario | clients | rate | p50 | p99 | errors | load | gateway CPU/request | driver CPU/request |\n"
        + "| --- | --- | --- | --- | --- | --- | --- | --- | --- |";
  }
}
