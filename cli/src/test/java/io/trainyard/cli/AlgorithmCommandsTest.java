package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code trainyard algorithms ...} against a real HTTP server answering like the gateway. */
class AlgorithmCommandsTest {
  private static final String LIST =
      """
      {"algorithms":[
        {"name":"nlp/bert","team":"nlp","visibility":"team","defaultVersion":2,
         "description":"BERT fine-tuning"},
        {"name":"shared/resnet","team":"shared","visibility":"everyone","defaultVersion":1}]}
      """;
  private static final String BERT =
      """
      {"name":"nlp/bert","team":"nlp","visibility":"team","defaultVersion":2,
       "versions":[
        {"version":1,"reference":"nlp/bert@1","status":"deprecated","isDefault":false,
         "publishedBy":"alice","definition":{"image":"bert:1"}},
        {"version":2,"reference":"nlp/bert@2","status":"active","isDefault":true,
         "publishedBy":"alice","definition":{"image":"bert:2",
           "hyperparameters":[{"name":"lr","type":"float","default":0.001}]}}]}
      """;

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

  @Test
  void listAndShowPrintTablesAndABareNameIsFoundAmongTheVisibleOnes() {
    gateway.answer("GET", "/v1/algorithms", 200, LIST);
    gateway.answer("GET", "/v1/algorithms/nlp/bert", 200, BERT);

    assertThat(run("algorithms", "list")).isZero();
    assertThat(stdout()).contains("nlp/bert", "BERT fine-tuning", "shared/resnet", "everyone");

    assertThat(run("algorithms", "show", "bert")).isZero();
    assertThat(stdout()).contains("2 (default)", "lr:float=0.001", "deprecated", "bert:2");
    assertThat(gateway.lastRequest().path()).isEqualTo("/v1/algorithms/nlp/bert");
  }

  @Test
  void createAndPublishSendTheYamlFileAndDefaultMovesTheDefault() throws IOException {
    Files.writeString(workDir.resolve("bert.yaml"), "name: bert\nframework: pytorch\n");
    gateway.answer("POST", "/v1/algorithms", 201, "{\"name\":\"nlp/bert\",\"defaultVersion\":1}");
    gateway.answer(
        "PUT", "/v1/algorithms/nlp/bert/versions/3", 201, "{\"reference\":\"nlp/bert@3\"}");
    gateway.answer(
        "POST",
        "/v1/algorithms/nlp/bert/default",
        200,
        "{\"name\":\"nlp/bert\",\"defaultVersion\":3}");

    assertThat(run("algorithms", "create", "bert.yaml")).isZero();
    assertThat(gateway.lastRequest().header("Content-Type")).isEqualTo("application/yaml");
    assertThat(gateway.lastRequest().bodyText()).startsWith("name: bert");
    assertThat(run("algorithms", "publish", "nlp/bert", "3", "bert.yaml")).isZero();
    assertThat(gateway.lastRequest().method()).isEqualTo("PUT");
    assertThat(run("algorithms", "default", "nlp/bert", "3")).isZero();
    assertThat(gateway.lastRequest().bodyText()).isEqualTo("{\"version\":3}");

    assertThat(stdout())
        .contains("created nlp/bert version 1 (default)")
        .contains("published nlp/bert@3")
        .contains("nlp/bert default is now 3");
  }

  @Test
  void aBadVersionOrVerbIsAUsageError() {
    assertThat(run("algorithms", "default", "nlp/bert", "three")).isEqualTo(2);
    assertThat(run("algorithms", "remove", "nlp/bert")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("VERSION", "usage");
    assertThat(gateway.requests()).isEmpty();
  }
}
