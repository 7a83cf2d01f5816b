package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RenderingTest {
  static final String QUOTE =
      """
      {"policy":"cheapest","chosen":"local","candidates":[
        {"backendId":"local","kind":"local","region":"local","spot":false,"hourlyUsd":"0",
         "estimatedUsd":"0","estimated":false,"chosen":true,"rejected":null,"notes":[]},
        {"backendId":"eks-prod-use1","kind":"eks","region":"us-east-1","spot":true,
         "hourlyUsd":"0.3472","estimatedUsd":"1.0416","estimated":false,"chosen":false,
         "rejected":null,"notes":["2 x m5.2xlarge (spot)","cluster fee share $0.01/h"]},
        {"backendId":"sagemaker-use1","kind":"sagemaker","region":"us-east-1","spot":false,
         "hourlyUsd":37.688,"estimatedUsd":113.064,"estimated":true,"chosen":false,
         "rejected":"no nvidia-a100-40gb GPU in us-east-1","notes":[]},
        {"backendId":"vertex-usc1","kind":"vertex","region":"us-central1","spot":null,
         "hourlyUsd":null,"estimatedUsd":null,"estimated":false,"chosen":false,
         "rejected":"region not allowed","notes":[]}],
       "warnings":["placement.regions is empty: any region"]}
      """;

  private final ObjectMapper json = new ObjectMapper();

  private JsonNode read(String text) throws Exception {
    return json.readTree(text);
  }

  @Test
  void quoteTable() throws Exception {
    assertThat(QuoteView.render(read(QUOTE)))
        .containsExactly(
            "BACKEND         KIND       REGION       SPOT  $/H     EST.$    DECISION",
            "local           local      local        no    0.00    0.00     chosen",
            "eks-prod-use1   eks        us-east-1    yes   0.3472  1.04     not chosen",
            "    note: 2 x m5.2xlarge (spot)",
            "    note: cluster fee share $0.01/h",
            "sagemaker-use1  sagemaker  us-east-1    no    37.69*  113.06*  rejected: no nvidia-a100-40gb GPU in us-east-1",
            "vertex-usc1     vertex     us-central1  -     -       -        rejected: region not allowed",
            "* estimated price",
            "policy cheapest: runs on local",
            "warning: placement.regions is empty: any region");
  }

  @Test
  void quoteTableShowsTheWholeJobsTotalAndWhyTheChoiceWon() throws Exception {
    var quote =
        read(
            """
            {"policy":"cheapest","chosen":"eks","rankedBy":"estimatedTotalUsd",
             "choice":"cheapest: the lowest estimatedTotalUsd, $3.89","candidates":[
              {"backendId":"eks","kind":"eks","region":"us-east-1","spot":false,"hourlyUsd":0.389,
               "estimatedUsd":0.389,"estimatedTotalUsd":3.89,"chosen":true},
              {"backendId":"sm","kind":"sagemaker","region":"us-east-1","spot":false,
               "hourlyUsd":0.461,"estimatedUsd":0.461,"estimatedTotalUsd":4.61,"chosen":false}]}
            """);
    assertThat(QuoteView.render(quote))
        .containsExactly(
            "BACKEND  KIND       REGION     SPOT  $/H    EST.$  TOTAL.$  DECISION",
            "eks      eks        us-east-1  no    0.389  0.389  3.89     chosen",
            "sm       sagemaker  us-east-1  no    0.461  0.461  4.61     not chosen",
            "policy cheapest: runs on eks",
            "why: cheapest: the lowest estimatedTotalUsd, $3.89");
  }

  @Test
  void quoteWithNothingChosen() throws Exception {
    var lines =
        QuoteView.render(read("{\"policy\":\"cheapest\",\"chosen\":null,\"candidates\":[]}"));

    assertThat(lines)
        .containsExactly(
            "BACKEND  KIND  REGION  SPOT  $/H  EST.$  DECISION",
            "policy cheapest: no backend can take this job now");
  }

  @Test
  void jobTableShowsAgeForLiveJobsAndDurationForEndedOnes() throws Exception {
    var jobs =
        read(
            """
            [{"id":"01a","name":"bert-imdb","state":"RUNNING","backend":"eks-prod-use1",
              "createdAt":"2026-01-15T11:55:00Z"},
             {"id":"01b","name":"lr","state":"SUCCEEDED","backend":"local",
              "createdAt":"2026-01-15T10:00:00Z","startedAt":"2026-01-15T10:00:02Z",
              "endedAt":"2026-01-15T10:00:14Z"},
             {"id":"01c","name":"queued","state":"QUEUED","backend":null,"createdAt":1768478100}]
            """);

    assertThat(JobView.table(jobs, Instant.parse("2026-01-15T12:00:00Z")))
        .containsExactly(
            "ID   NAME       STATE      BACKEND        AGE/DURATION",
            "01a  bert-imdb  RUNNING    eks-prod-use1  5m00s ago",
            "01b  lr         SUCCEEDED  local          12s",
            "01c  queued     QUEUED     -              5m00s ago");
    assertThat(JobView.table(read("[]"), Instant.now())).containsExactly("no jobs");
  }

  @Test
  void oneJobAsKeyValueLines() throws Exception {
    var job =
        read(
            """
            {"id":"01b","name":"lr","team":"demo","owner":"demo","state":"FAILED","attempt":2,
             "backend":"local","objectName":"ty-01b-a2","hourlyUsd":"0.0116","estimatedUsd":"0.05","reason":"exit code 1",
             "restarts":0,"createdAt":"2026-01-15T10:00:00Z","submittedAt":1768471201.25,
             "startedAt":"2026-01-15T10:00:02.5Z","endedAt":"2026-01-15T10:03:09Z",
             "durationSeconds":187}
            """);

    assertThat(JobView.details(job))
        .containsExactly(
            "id:        01b",
            "name:      lr",
            "team:      demo",
            "owner:     demo",
            "state:     FAILED",
            "attempt:   2",
            "backend:   local",
            "object:    ty-01b-a2",
            "hourly:    $0.0116/h",
            "estimated: $0.05",
            "reason:    exit code 1",
            "restarts:  0",
            "created:   2026-01-15T10:00:00Z",
            "submitted: 2026-01-15T10:00:01Z",
            "started:   2026-01-15T10:00:02Z",
            "ended:     2026-01-15T10:03:09Z",
            "duration:  3m07s");
  }

  @Test
  void dryRunWithTheDecisionNestedOrUnwrapped() throws Exception {
    String candidates =
        "\"policy\":\"cheapest\",\"chosen\":\"local\",\"candidates\":[{\"backendId\":\"local\","
            + "\"kind\":\"local\",\"chosen\":true}]";
    var nested = read("{\"dryRun\":true,\"decision\":{" + candidates + "},\"warnings\":[\"w\"]}");
    var unwrapped =
        read("{\"dryRun\":true,\"team\":\"demo\"," + candidates + ",\"warnings\":[\"w\"]}");

    for (var answer : java.util.List.of(nested, unwrapped)) {
      assertThat(JobView.dryRun(answer))
          .containsExactly(
              "dry run: nothing was submitted",
              "BACKEND  KIND   REGION  SPOT  $/H  EST.$  DECISION",
              "local    local  -       -     -    -      chosen",
              "policy cheapest: runs on local",
              "warning: w");
    }
  }

  @Test
  void queuedSubmissionHasNoBackendYet() throws Exception {
    var answer =
        read(
            "{\"id\":\"01q\",\"name\":\"big\",\"team\":\"nlp\",\"state\":\"QUEUED\",\"attempt\":1}");

    assertThat(JobView.submitted(answer))
        .containsExactly(
            "submitted job 01q (big, team nlp)",
            "  state:   QUEUED, attempt 1",
            "  backend: none yet");
  }

  @Test
  void dollars() throws Exception {
    assertThat(Usd.format(read("0"))).isEqualTo("0.00");
    assertThat(Usd.format(read("\"32.7700\""))).isEqualTo("32.77");
    assertThat(Usd.format(read("0.5"))).isEqualTo("0.50");
    assertThat(Usd.format(read("0.0116"))).isEqualTo("0.0116");
    assertThat(Usd.format(read("0.123456"))).isEqualTo("0.1235");
    assertThat(Usd.format(read("1234.5"))).isEqualTo("1234.50");
    assertThat(Usd.format(read("null"))).isNull();
    assertThat(Usd.format(read("\"n/a\""))).isEqualTo("n/a");
  }

  @Test
  void durations() {
    assertThat(HumanDuration.parse("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(HumanDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(HumanDuration.parse("90")).isEqualTo(Duration.ofSeconds(90));
    assertThat(HumanDuration.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(HumanDuration.parse(" 2D ")).isEqualTo(Duration.ofDays(2));
    assertThatThrownBy(() -> HumanDuration.parse("10 minutes"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HumanDuration.parse("")).isInstanceOf(IllegalArgumentException.class);

    assertThat(HumanDuration.format(Duration.ofSeconds(42))).isEqualTo("42s");
    assertThat(HumanDuration.format(Duration.ofSeconds(187))).isEqualTo("3m07s");
    assertThat(HumanDuration.format(Duration.ofMinutes(125))).isEqualTo("2h05m");
    assertThat(HumanDuration.format(Duration.ofHours(76))).isEqualTo("3d04h");
    assertThat(HumanDuration.format(Duration.ofSeconds(-5))).isEqualTo("0s");
    assertThat(HumanDuration.format(Duration.ofMillis(1260))).isEqualTo("1.3s");
  }

  @Test
  void textTableAlignsColumnsAndKeepsNotesAsTheyAre() {
    var table =
        new TextTable("A", "LONGER", "C")
            .row("wide cell", "x", "")
            .note("  a note")
            .row("b", null, "z");

    assertThat(table.lines())
        .containsExactly(
            "A          LONGER  C", "wide cell  x       -", "  a note", "b          -       z");
    assertThatThrownBy(() -> table.row("too few")).isInstanceOf(IllegalArgumentException.class);
  }
}
