package io.trainyard.gateway.api;

import java.util.List;

/** {@code GET /v1/jobs}. */
public record JobList(List<JobView> jobs) {}
