package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.trainyard.cost.RoutingDecision;
import java.util.List;

/**
 * The decision table for a job without submitting it ({@code POST /v1/quotes}, or a dry run).
 *
 * @param dryRun true when answering {@code POST /v1/jobs?dryRun=true}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QuoteResponse(
    Boolean dryRun, String team, @JsonUnwrapped RoutingDecision decision, List<String> warnings) {}
