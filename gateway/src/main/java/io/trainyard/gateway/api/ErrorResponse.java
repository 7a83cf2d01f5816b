package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.spi.spec.FieldError;
import java.util.List;

/**
 * Every error the API answers: {@code {code, message, errors[], requestId}}, plus the routing
 * decision when no backend could take a job.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorResponse(
    String code, String message, List<FieldError> errors, String requestId, Object decision) {}
