package io.trainyard.spi.spec;

/** Compliance constraints of a job. */
public record Compliance(DataClassification dataClassification) {}
