package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code GET /v1/jobs}.
 *
 * @param next the cursor of the next page (same filters); null on the last page
 */
public record JobList(List<JobView> jobs, @JsonInclude(JsonInclude.Include.NON_NULL) String next) {}
