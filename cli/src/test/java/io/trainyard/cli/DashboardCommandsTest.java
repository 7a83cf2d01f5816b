package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code spend}, {@code backends} and {@code audit export}, in-process against a fake gateway. */
class DashboardCommandsTest {
  @TempDir Path workDir;

  private FakeGateway gateway;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void startGateway() throws IOException {
    gateway = new FakeGateway();
    env.put("TRAINYARD_URL", gateway.url());
    env.put("TRAINYARD_TOKEN", "env-token");
  }

  @AfterEach
  void stopGateway() {
    gateway.close();
  }

  @Test
  void spendShowsATablePerTeamAndALinePerManagedPlatform() {
    gateway.answer(
        "GET",
        "/v1/spend",
        200,
        """
        {"granularity":"day","since":"2026-11-01T00:00:00Z","until":"2026-12-01T00:00:00Z",
         "series":[{"team":"nlp","backend":"eks-prod","points":[
            {"start":"2026-11-01T00:00:00Z","usd":12.5},{"start":"2026-11-02T00:00:00Z","usd":30}]}],
         "budgets":[{"team":"nlp","monthlyUsd":5000.0}],
         "comparison":[{"team":"nlp","jobs":12,"actualUsd":42.5,
            "managed":[{"backend":"sagemaker","usd":140.2,"jobsQuoted":11}]}]}
        """);

    int exit = run("spend", "nlp", "--granularity", "day");

    assertThat(exit).as(stderr()).isZero();
    assertThat(gateway.lastRequest().query()).isEqualTo("team=nlp&granularity=day");
    assertThat(stdout())
        .contains("team nlp  (budget $5000.00/month)")
        .contains("BACKEND   USD    BUSIEST     BUSIEST.$")
        .contains("eks-prod  42.50  2026-11-02  30.00")
        .contains("12 job(s) cost $42.50")
        .contains("  sagemaker: $140.20 (11 of 12 job(s) had an offer there)");
  }

  @Test
  void backendsShowHealthJobsCapacityAndCatalogAge() {
    gateway.answer(
        "GET",
        "/v1/backends",
        200,
        """
        {"backends":[
          {"id":"eks-prod","kind":"eks","healthy":true,"jobs":{"running":3,"queued":1},
           "capacity":{"gpus":{"used":12,"limit":32},"cpus":{"used":40.5,"limit":null},
                       "jobs":{"used":3,"limit":null}},
           "catalog":{"source":"embedded catalog","asOf":"2026-11-01T00:00:00Z","ageSeconds":259200},
           "health":{"healthy":true,"reason":null}},
          {"id":"sm","kind":"sagemaker","healthy":false,"message":"credentials refused",
           "jobs":{"running":0,"queued":0},
           "capacity":{"gpus":{"used":0,"limit":null},"cpus":{"used":0,"limit":null},
                       "jobs":{"used":0,"limit":null}},
           "catalog":{"source":"embedded catalog","asOf":null,"ageSeconds":null},
           "health":{"healthy":false,"reason":"credentials refused"}}]}
        """);

    int exit = run("backends");

    assertThat(exit).as(stderr()).isZero();
    assertThat(stdout().lines().toList())
        .containsSequence(
            "BACKEND   KIND       HEALTH  RUNNING  QUEUED  GPUS   CPUS  PRICES",
            "eks-prod  eks        ok      3        1       12/32  40.5  3d old",
            "sm        sagemaker  DOWN    0        0       0      0     age unknown",
            "  sm: credentials refused");
  }

  @Test
  void auditExportStartsTheExportWithTheFiltersAsked() {
    gateway.answer(
        "POST",
        "/v1/audit/exports",
        201,
        """
        {"name":"nov","blobs":["nov/events.jsonl","nov/manifest.json"],
         "manifest":{"records":40,"fromSeq":1,"toSeq":40},"chainIntactAtExport":true}
        """);

    int exit =
        run(
            "audit",
            "export",
            "--from",
            "2026-11-01T00:00:00Z",
            "--team",
            "nlp,vision",
            "--action",
            "job.*",
            "--name",
            "nov");

    assertThat(exit).as(stderr()).isZero();
    assertThat(gateway.lastRequest().bodyText())
        .isEqualTo(
            "{\"from\":\"2026-11-01T00:00:00Z\",\"name\":\"nov\",\"teams\":[\"nlp\",\"vision\"],"
                + "\"actions\":[\"job.*\"]}");
    assertThat(stdout())
        .contains("export nov: 40 record(s), seq 1..40, chain intact")
        .contains("  nov/manifest.json");
  }

  @Test
  void helpShowsExamplesAndBadUsageIsExitTwo() {
    for (var command : List.of("spend", "backends", "audit")) {
      out.reset();
      assertThat(run(command, "--help")).isZero();
      assertThat(stdout()).contains("usage: trainyard " + command).contains("examples:");
    }
    assertThat(run("backends", "extra")).isEqualTo(2);
    assertThat(run("audit", "verify")).isEqualTo(2);
    assertThat(run("audit", "export", "--bogus")).isEqualTo(2);
    assertThat(gateway.requests()).isEmpty();
  }

  private int run(String... args) {
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env,
            workDir);
    return TrainyardCli.run(args, terminal);
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
