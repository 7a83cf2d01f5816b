package io.trainyard.spi.spec;

import java.util.Objects;

/**
 * One thing wrong with a submitted document.
 *
 * @param field the path of the offending field, e.g. {@code spec.replicas.worker}
 * @param message why, in words a user can act on
 */
public record FieldError(String field, String message) {
  public FieldError {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }
}
