package io.trainyard.gateway.metrics;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads {@code trainyard-metric name=loss value=0.42 step=3 epoch=1} from a log line (anywhere in
 * it, so replica prefixes and timestamps may come first). {@code name} and {@code value} are
 * required, {@code step} and {@code epoch} optional but at least one of them; anything else on the
 * line is ignored. A line that does not parse or break {@link MetricBatch}'s bounds is not a
 * metric. Stateless and thread-safe.
 */
public final class MetricLines {
  static final String MARKER = "trainyard-metric";
  private static final Pattern LINE =
      Pattern.compile("(?:^|\\s|\\])" + MARKER + "((?:\\s+[a-z_]+=\\S+)+)");
  private static final Pattern PAIR = Pattern.compile("([a-z_]+)=(\\S+)");

  private MetricLines() {}

  /** The metric on {@code text}, if it holds one; {@code at} is its time when the line has none. */
  public static Optional<MetricPoint> parse(String text, Instant at) {
    if (text == null || !text.contains(MARKER)) {
      return Optional.empty();
    }
    var m = LINE.matcher(text);
    if (!m.find()) {
      return Optional.empty();
    }
    String name = null;
    Double value = null;
    Long step = null;
    Long epoch = null;
    try {
      var pairs = PAIR.matcher(m.group(1));
      while (pairs.find()) {
        var v = pairs.group(2);
        switch (pairs.group(1)) {
          case "name" -> name = v;
          case "value" -> value = Double.parseDouble(v);
          case "step" -> step = Long.parseLong(v);
          case "epoch" -> epoch = Long.parseLong(v);
          default -> {
            // Other fields are the job's business.
          }
        }
      }
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (name == null || value == null) {
      return Optional.empty();
    }
    var point = new MetricPoint(name, value, step, epoch, at);
    return MetricBatch.problems(point, at).isEmpty() ? Optional.of(point) : Optional.empty();
  }
}
