package io.trainyard.spi;

import java.util.Map;
import java.util.Objects;

/**
 * How a backend finds an attempt again: its object name plus whatever else the backend needs
 * (namespace, ARN ...). Stored with the job; opaque to everything but the backend that made it.
 */
public record ExternalRef(String backendId, String name, Map<String, String> attributes) {
  public ExternalRef {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(name, "name");
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
  }
}
