package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What Kubernetes backends clean up after a job: its pods ({@code cleanPodPolicy}) and the job
 * object after {@code ttlAfterFinished} (a duration such as {@code 1h}; {@code 0s} = as soon as it
 * ends).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Cleanup(CleanPodPolicy pods, String ttlAfterFinished) {}
