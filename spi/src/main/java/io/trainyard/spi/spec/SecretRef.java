package io.trainyard.spi.spec;

import java.util.Objects;

/**
 * A reference to a secret value, never the value itself. Each backend resolves it its own way (a
 * {@code secretKeyRef} on Kubernetes, a file under {@code ./data/secrets} locally).
 */
public record SecretRef(String secret, String key) {
  public SecretRef {
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(key, "key");
  }
}
