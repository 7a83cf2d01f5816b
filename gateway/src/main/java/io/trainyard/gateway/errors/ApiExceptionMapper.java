package io.trainyard.gateway.errors;

import com.fasterxml.jackson.core.JsonGenerationException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import io.trainyard.gateway.api.ErrorResponse;
import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.spec.FieldError;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import org.glassfish.jersey.server.ParamException;
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
    if (DatabaseOutage.isCause(error)) {
      return DatabaseOutage.answer(requestId, error);
    }
    if (error instanceof ApiException api) {
      var errors = api.errors();
      if (errors.isEmpty() && api.code().category() == ErrorCode.Category.USER) {
        // Every refusal names what the caller should change, even where the thrower did not.
        errors = List.of(new FieldError(concerned(api.code()), api.getMessage()));
      }
      var response =
          respond(
              api.code().status(),
              new ErrorResponse(
                  api.code().name(),
                  ErrorText.printable(api.getMessage()),
                  ErrorText.printable(errors),
                  requestId,
                  api.detail(),
                  api.errorCount() == 0 ? errors.size() : api.errorCount()));
      if (api.retryAfterSeconds() > 0) {
        response.getHeaders().putSingle("Retry-After", Long.toString(api.retryAfterSeconds()));
      }
      return response;
    }
    if (error instanceof ParamException param) {
      // Jersey answers a query parameter it cannot convert with 404, as if the path were wrong.
      return malformed(
          new FieldError(ErrorText.printable(param.getParameterName()), reason(param)), requestId);
    }
    if (isReadError(error)) {
      // A JSON body Jersey could not read into a resource's parameter (the audit export's).
      return malformed(
          new FieldError("body", "is not valid JSON of the expected shape"), requestId);
    }
    var body = bodyProblem(error);
    if (body != null) {
      return respond(
          body.status(),
          new ErrorResponse(
              ErrorCode.forStatus(body.status()).name(),
              body.error().field() + " " + body.error().message(),
              List.of(body.error()),
              requestId,
              null));
    }
    if (error instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
      var status = web.getResponse().getStatus();
      var code = ErrorCode.forStatus(status);
      var field = JsonErrorHandler.error(status);
      return respond(
          status,
          new ErrorResponse(
              code.name(), field.field() + " " + field.message(), List.of(field), requestId, null));
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

  private record BodyProblem(int status, FieldError error) {}

  /**
   * What went wrong reading the request's body, when that is what failed: a body compressed wrongly
   * for its {@code Content-Encoding}, or one Jetty stopped reading (sent too slowly, cut short).
   * Found anywhere in the cause chain: readers wrap what they meet.
   */
  private static BodyProblem bodyProblem(Throwable error) {
    for (var e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof java.util.zip.ZipException) {
        return new BodyProblem(
            400,
            new FieldError(
                "Content-Encoding", "the body is not what its Content-Encoding says (gzip)"));
      }
      if (e instanceof org.eclipse.jetty.http.HttpException bad
          && bad.getCode() >= 400
          && bad.getCode() < 500) {
        return new BodyProblem(
            bad.getCode(),
            new FieldError(
                "body",
                bad.getCode() == 408
                    ? "arrived too slowly; send it at once"
                    : "could not be read: " + ErrorText.printable(bad.getReason())));
      }
    }
    return null;
  }

  /**
   * A Jackson error from reading a request body: anything but failing to write (a generation error)
   * or a type Jackson cannot handle at all (a definition error), which are ours.
   */
  private static boolean isReadError(Throwable error) {
    return error instanceof JsonProcessingException
        && !(error instanceof JsonGenerationException)
        && !(error instanceof InvalidDefinitionException);
  }

  /** The part of the request a refusal without field errors is about. */
  private static String concerned(ErrorCode code) {
    return switch (code) {
      case UNAUTHENTICATED, FORBIDDEN -> "Authorization";
      case NOT_FOUND -> "path";
      case PAYLOAD_TOO_LARGE -> "body";
      case NO_OFFER, OVER_BUDGET, INVALID_SPEC -> "spec";
      default -> "request";
    };
  }

  /** Why a parameter was refused, in the words of the converter that refused it. */
  private static String reason(ParamException param) {
    var cause = param.getCause();
    if (cause instanceof StrictParameters.NotABoolean notBoolean) {
      return notBoolean.getMessage();
    }
    if (cause instanceof NumberFormatException) {
      return "must be a whole number";
    }
    return "is not a valid value";
  }

  /** 400 with one field error, its text also the message. */
  private static Response malformed(FieldError field, String requestId) {
    return respond(
        400,
        new ErrorResponse(
            ErrorCode.MALFORMED.name(),
            field.field() + " " + field.message(),
            List.of(field),
            requestId,
            null));
  }

  private static Response respond(int status, ErrorResponse body) {
    return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
  }
}
