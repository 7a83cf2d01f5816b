package io.trainyard.gateway.errors;

import io.trainyard.gateway.api.ErrorResponse;
import io.trainyard.gateway.logging.LogEscape;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The one place errors become responses: the error shape of DESIGN.md, never a stack trace or a raw
 * SDK message. Unexpected errors are logged here (with the request id) and nowhere else.
 */
public final class ApiExceptionMapper implements ExceptionMapper<Throwable> {
  private static final Logger LOG = LoggerFactory.getLogger(ApiExceptionMapper.class);

  @Override
  public Response toResponse(Throwable error) {
    // Set by RequestIds on this thread; response filters, which clear it, run after mappers.
    var requestId = MDC.get(RequestIds.MDC_KEY);
    if (error instanceof ApiException api) {
      var response =
          respond(
              api.code().status(),
              new ErrorResponse(
                  api.code().name(), api.getMessage(), api.errors(), requestId, api.detail()));
      if (api.retryAfterSeconds() > 0) {
        response.getHeaders().putSingle("Retry-After", Long.toString(api.retryAfterSeconds()));
      }
      return response;
    }
    if (error instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
      var status = web.getResponse().getStatus();
      var code = ErrorCode.forStatus(status);
      return respond(
          status, new ErrorResponse(code.name(), plain(status), List.of(), requestId, null));
    }
    // An unexpected error's message may quote the request: escaped, so it cannot forge lines.
    LOG.error("request {} failed", requestId, LogEscape.throwable(error));
    return respond(
        500,
        new ErrorResponse(
            ErrorCode.INTERNAL.name(),
            "internal error; quote request id " + requestId + " when reporting it",
            List.of(),
            requestId,
            null));
  }

  private static String plain(int status) {
    return switch (status) {
      case 404 -> "no such resource";
      case 405 -> "method not allowed on this resource";
      case 406 -> "cannot answer in the requested media type";
      case 415 -> "unsupported content type";
      default -> "request refused (HTTP " + status + ")";
    };
  }

  private static Response respond(int status, ErrorResponse body) {
    return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
  }
}
