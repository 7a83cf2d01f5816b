package io.trainyard.spi.spec;

/** Where the job writes its model artifacts. */
public record Output(String uri) {}
