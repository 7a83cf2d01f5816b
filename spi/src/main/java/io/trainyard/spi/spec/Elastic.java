package io.trainyard.spi.spec;

/** PyTorch elastic training bounds (the operator's {@code elasticPolicy}). */
public record Elastic(Integer minReplicas, Integer maxReplicas, Integer maxRestarts) {}
