package io.trainyard.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactingRequestLogTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          access_token=eyJabc.eyJdef.sig           | access_token=REDACTED
          follow=true&access_token=x&since=2026    | follow=true&access_token=REDACTED&since=2026
          ACCESS_TOKEN=x                           | ACCESS_TOKEN=REDACTED
          access%5Ftoken=x                         | access%5Ftoken=REDACTED
          X-Amz-Signature=abc&X-Amz-Credential=k   | X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED
          limit=10&state=RUNNING                   | limit=10&state=RUNNING
          access_token                             | access_token
          x=1;access_token=abc                     | x=1;access_token=REDACTED
          access_token+=abc                        | access_token+=REDACTED
          /v1/jobs;access_token=abc                | /v1/jobs;access_token=REDACTED
          jwt=eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl   | jwt=REDACTED
          /v1/jobs/eyJhbGciOi.eyJzdWIiOi.c2ln/logs | /v1/jobs/REDACTED/logs
          """)
  void secretParametersLoseTheirValuesAndOthersStay(String query, String logged) {
    assertThat(RedactingRequestLog.redact(query)).isEqualTo(logged);
  }

  @org.junit.jupiter.api.Test
  void freeTextHeadersTheAccessLogWritesHaveTheirControlCharactersEscaped() {
    var forged =
        org.eclipse.jetty.http.HttpFields.build()
            .put(org.eclipse.jetty.http.HttpHeader.USER_AGENT, "curl\u0085ERROR forged\u202e")
            .put(org.eclipse.jetty.http.HttpHeader.REFERER, "https://example.com/");
    var escaped = RedactingRequestLog.escapedHeaders(forged);
    assertThat(escaped.get(org.eclipse.jetty.http.HttpHeader.USER_AGENT))
        .isEqualTo("curl\\u0085ERROR forged\\u202e");
    assertThat(escaped.get(org.eclipse.jetty.http.HttpHeader.REFERER))
        .isEqualTo("https://example.com/");
    var plain =
        org.eclipse.jetty.http.HttpFields.build()
            .put(org.eclipse.jetty.http.HttpHeader.USER_AGENT, "trainyard-cli/0.1");
    assertThat(RedactingRequestLog.escapedHeaders(plain)).isNull();
  }
}
