package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.spi.spec.FieldError;
import java.util.List;

/**
 * Every error the API answers: {@code {code, message, errors[], requestId}}, plus the routing
 * decision when no backend could take a job.
 *
 * @param errorCount how many field errors there were when there were any; {@code errors} lists at
 *     most the first 100 of them
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorResponse(
    String code,
    String message,
    List<FieldError> errors,
    String requestId,
    Object decision,
    Integer errorCount) {

  public ErrorResponse(
      String code, String message, List<FieldError> errors, String requestId, Object decision) {
    this(code, message, errors, requestId, decision, errors.isEmpty() ? null : errors.size());
  }
}
