package io.trainyard.spi.spec;

/** Where the job writes checkpoints, so a spot or failed-over attempt can resume. */
public record Checkpoint(String uri) {}
