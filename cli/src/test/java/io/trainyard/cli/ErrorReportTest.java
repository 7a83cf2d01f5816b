package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorReportTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void anAnswerThatIsNotTheErrorShapeIsQuotedWithItsControlCharactersShown() {
    var error = ErrorReport.from(502, "bad gateway \u001b]0;pwned\u0007 upstream", json, true);

    assertThat(error.getMessage())
        .isEqualTo("the gateway answered HTTP 502: bad gateway ^[]0;pwned^G upstream");
  }

  @Test
  void theGatewaysErrorShape() {
    String body =
        """
        {"code":"CONFLICT","message":"idempotency key reused with a different spec",
         "errors":[{"field":null,"message":"key retry-1 was first used 3m ago"}],"requestId":"r-9"}
        """;

    var error = ErrorReport.from(409, body, json, true);

    assertThat(error.status()).isEqualTo(ExitStatus.REFUSED);
    assertThat(error.getMessage()).isEqualTo("idempotency key reused with a different spec");
    assertThat(error.details())
        .containsExactly("  key retry-1 was first used 3m ago", "  request id: r-9");
    assertThat(error.rawAnswer()).isEqualTo(body);
  }

  @Test
  void noBackendCanRunItComesWithTheDecisionTable() {
    String body =
        """
        {"code":"NO_BACKEND","message":"no backend can run this job","requestId":"r-1",
         "decision":{"policy":"cheapest","chosen":null,"candidates":[
           {"backendId":"local","kind":"local","region":"local","spot":false,
            "rejected":"needs 8 GPUs, this machine has 0"}]}}
        """;

    var error = ErrorReport.from(422, body, json, true);

    assertThat(error.details())
        .containsExactly(
            "  BACKEND  KIND   REGION  SPOT  $/H  EST.$  DECISION",
            "  local    local  local   no    -    -      rejected: needs 8 GPUs, this machine has 0",
            "  policy cheapest: no backend can take this job now",
            "  request id: r-1");
  }

  @Test
  void refusedTokenSaysSo() {
    var error =
        ErrorReport.from(
            401, "{\"code\":\"UNAUTHENTICATED\",\"message\":\"unauthorized\"}", json, true);

    assertThat(error.status()).isEqualTo(ExitStatus.AUTH);
    assertThat(error.details())
        .containsExactly(
            "  the token was not accepted: it may have expired, or be for another gateway",
            "  run `trainyard login` (or set a fresh TRAINYARD_TOKEN, or pass --token)");
  }

  @Test
  void anExpiredJwtSaysWhenItExpiredWithoutShowingIt() {
    var payload =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString("{\"sub\":\"alice\",\"exp\":1700000000}".getBytes());
    var token = "eyJhbGciOiJFUzI1NiJ9." + payload + ".c2lnbmF0dXJl";
    var now = java.time.Instant.ofEpochSecond(1700000000 + 300);

    var error =
        ErrorReport.from(
            401,
            "{\"code\":\"UNAUTHENTICATED\",\"message\":\"a valid bearer token is required\"}",
            json,
            token,
            now);

    assertThat(error.status()).isEqualTo(ExitStatus.AUTH);
    assertThat(error.details())
        .containsExactly(
            "  the token expired 5m00s ago (at 2023-11-14T22:13:20Z)",
            "  run `trainyard login` (or set a fresh TRAINYARD_TOKEN, or pass --token)");
    assertThat(String.join("\n", error.details()) + error.getMessage()).doesNotContain(payload);
  }

  @ParameterizedTest(name = "HTTP {0} -> exit {1}")
  @CsvSource({
    "400, 4", "401, 6", "403, 4", "404, 7", "409, 4", "422, 4", "429, 4", "500, 5", "502, 5",
    "503, 5"
  })
  void everyHttpStatusHasItsExitStatus(int http, int exit) {
    assertThat(ErrorReport.from(http, "{\"message\":\"x\"}", json, true).status().code())
        .isEqualTo(exit);
  }

  @Test
  void somethingElseIsReportedByStatusWithItsFirstLine() {
    var error = ErrorReport.from(503, "upstream connect error\nreset reason: overflow", json, true);

    assertThat(error.getMessage())
        .isEqualTo("the gateway answered HTTP 503: upstream connect error");
    assertThat(error.rawAnswer()).isNull();
    assertThat(ErrorReport.from(500, "", json, true).getMessage())
        .isEqualTo("the gateway answered HTTP 500");
    assertThat(ErrorReport.from(404, "[1,2]", json, true).getMessage())
        .isEqualTo("the gateway answered HTTP 404: [1,2]");
  }
}
