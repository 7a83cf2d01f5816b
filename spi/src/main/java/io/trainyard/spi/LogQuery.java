package io.trainyard.spi;

import java.time.Instant;

/**
 * Which logs to read.
 *
 * @param replica e.g. {@code worker-0}; null for every replica
 * @param since only lines at or after this instant; null for all
 * @param follow keep the stream open for new lines until the attempt ends
 */
public record LogQuery(String replica, Instant since, boolean follow) {
  public static final LogQuery ALL = new LogQuery(null, null, false);
}
