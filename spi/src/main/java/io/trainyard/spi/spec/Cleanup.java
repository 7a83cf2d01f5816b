package io.trainyard.spi.spec;

/**
 * What Kubernetes backends clean up after a job: its pods ({@code cleanPodPolicy}) and the job
 * object after {@code ttlAfterFinished} (a duration such as {@code 1h}).
 */
public record Cleanup(CleanPodPolicy pods, String ttlAfterFinished) {}
