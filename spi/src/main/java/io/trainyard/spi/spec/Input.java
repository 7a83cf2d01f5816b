package io.trainyard.spi.spec;

/** A named input data set (a channel on SageMaker). */
public record Input(String name, String uri) {}
