package io.trainyard.spi;

import java.time.Instant;

/**
 * One line a replica printed.
 *
 * @param replica {@code <role>-<index>}, e.g. {@code master-0}
 * @param at when the backend saw it; null when unknown
 */
public record LogLine(String replica, Instant at, String text) {}
