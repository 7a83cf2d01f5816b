package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.trainyard.cost.RoutingDecision;
import java.util.List;

/** The answer to a submission: the job, what was adjusted, and the decision's evidence. */
public record SubmitResponse(
    @JsonUnwrapped JobView job, List<String> warnings, RoutingDecision decision) {}
