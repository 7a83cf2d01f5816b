package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VertexLogFilterTest {
  private static final Instant T = Instant.parse("2026-12-01T10:15:30.123456789Z");

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
          plain          | "plain"
          say "hi"       | "say \\"hi\\""
          back\\slash    | "back\\\\slash"
          '" OR true'    | "\\" OR true"
          """)
  void valuesAreQuotedAndEscaped(String value, String quoted) {
    assertThat(VertexLogFilter.quote(value)).isEqualTo(quoted);
  }

  @Test
  void controlCharactersAreEscapedToo() {
    assertThat(VertexLogFilter.quote("a\nb\tc\u0001")).isEqualTo("\"a\\nb\\tc\\u0001\"");
  }

  @Test
  void aClauseNamesTheJobTheTaskAndTheWindow() {
    assertThat(VertexLogFilter.clause("123", null, null, null))
        .isEqualTo("resource.labels.job_id=\"123\"");
    assertThat(
            VertexLogFilter.clause(
                "123", "workerpool1-0", VertexLogCursor.since(T), T.plusSeconds(60)))
        .isEqualTo(
            "resource.labels.job_id=\"123\" AND resource.labels.task_name=\"workerpool1-0\""
                + " AND timestamp>=\"2026-12-01T10:15:30.123456789Z\""
                + " AND timestamp<\"2026-12-01T10:16:30.123456789Z\"");
  }

  @Test
  void afterAnEntryMeansALaterTimeOrTheSameTimeAndALaterInsertId() {
    var cursor = new VertexLogCursor(T, "00a");

    assertThat(cursor.lowerBound())
        .isEqualTo(
            "(timestamp>\"2026-12-01T10:15:30.123456789Z\" OR"
                + " (timestamp=\"2026-12-01T10:15:30.123456789Z\" AND insertId>\"00a\"))");
    assertThat(cursor.admits(T, "00b")).isTrue();
    assertThat(cursor.admits(T, "00a")).isFalse();
    assertThat(cursor.admits(T.plusNanos(1), "000")).isTrue();
    assertThat(cursor.admits(T.minusNanos(1), "zzz")).isFalse();
    assertThat(VertexLogCursor.since(T).admits(T, "000")).isTrue();
  }

  @Test
  void severalClausesAreParenthesisedSoAndAndOrCannotMix() {
    assertThat(VertexLogFilter.of(List.of("a=\"1\" AND b=\"2\"", "a=\"3\"")))
        .isEqualTo("resource.type=\"ml_job\" AND ((a=\"1\" AND b=\"2\") OR (a=\"3\"))");
    assertThat(VertexLogFilter.of(List.of("a=\"1\"")))
        .isEqualTo("resource.type=\"ml_job\" AND a=\"1\"");
  }
}
