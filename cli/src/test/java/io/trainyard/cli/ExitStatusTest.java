package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one exit-status table: README's matches {@link ExitStatus}, and each row is what the CLI
 * returns for its cause, with one {@code error:} line (or the JSON error shape) and no stack trace.
 */
class ExitStatusTest {
  private static final String ID = "01jh5n8k2q7x3v4w5y6z7a8b9c";

  @TempDir Path workDir;

  private FakeGateway gateway;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void startGateway() throws IOException {
    gateway = new FakeGateway();
    env.put("TRAINYARD_URL", gateway.url());
    env.put("TRAINYARD_TOKEN", "t");
  }

  @AfterEach
  void stopGateway() {
    gateway.close();
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env,
            workDir);
    return TrainyardCli.run(args, terminal);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theReadmeTableIsTheEnum() throws IOException {
    var readme = Files.readString(Path.of("..", "README.md"));
    var rows = Pattern.compile("(?m)^\\| (\\d+) \\| `([A-Z_]+)` \\|").matcher(readme);
    var documented = new ArrayList<String>();
    while (rows.find()) {
      documented.add(rows.group(1) + " " + rows.group(2));
    }
    var actual = new ArrayList<String>();
    for (var status : ExitStatus.values()) {
      actual.add(status.code() + " " + status.name());
    }
    assertThat(documented).isEqualTo(actual);
  }

  @Test
  void eachCauseHasItsStatus() throws IOException {
    gateway.answer("GET", "/v1/jobs/" + ID, 404, "{\"code\":\"NOT_FOUND\",\"message\":\"no job\"}");
    gateway.answer(
        "DELETE", "/v1/jobs/" + ID, 409, "{\"code\":\"CONFLICT\",\"message\":\"already ended\"}");
    gateway.answer(
        "GET", "/v1/queue", 503, "{\"code\":\"DATABASE_UNAVAILABLE\",\"message\":\"db\"}");
    gateway.answer("GET", "/v1/jobs", 401, "{\"code\":\"UNAUTHENTICATED\",\"message\":\"no\"}");

    assertThat(run("status", ID)).isEqualTo(ExitStatus.NOT_FOUND.code()).isEqualTo(7);
    assertThat(stderr()).isEqualTo("error: no job\n");
    assertThat(run("cancel", ID)).isEqualTo(ExitStatus.REFUSED.code()).isEqualTo(4);
    assertThat(run("queue")).isEqualTo(ExitStatus.GATEWAY_ERROR.code()).isEqualTo(5);
    assertThat(run("status")).isEqualTo(ExitStatus.AUTH.code()).isEqualTo(6);
    assertThat(stderr()).contains("run `trainyard login`");
    assertThat(run("statu")).isEqualTo(ExitStatus.USAGE.code()).isEqualTo(2);
  }

  @Test
  void anUnknownHostIsUnreachable() {
    int exit = run("--url", "http://no-such-gateway.invalid:8080", "status");

    assertThat(exit).isEqualTo(3);
    assertThat(stderr().lines())
        .first()
        .isEqualTo(
            "error: cannot reach the Trainyard gateway at http://no-such-gateway.invalid:8080:"
                + " unknown host no-such-gateway.invalid");
  }

  @Test
  void aGatewayThatAcceptsButNeverAnswersTimesOutAfterTrainyardTimeout() throws IOException {
    try (var silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      var held = new ArrayList<Socket>();
      var acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException e) {
                  // closed at the end of the test
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      env.put("TRAINYARD_URL", "http://127.0.0.1:" + silent.getLocalPort());
      env.put("TRAINYARD_TIMEOUT", "1s");

      int exit = run("status");

      assertThat(exit).isEqualTo(5);
      assertThat(stderr().lines())
          .containsExactly(
              "error: the gateway at http://127.0.0.1:"
                  + silent.getLocalPort()
                  + " did not answer within 1s",
              "  a slow network? set TRAINYARD_TIMEOUT (e.g. 2m) to wait longer");
    }
  }

  @Test
  void aGatewayWhoseListenQueueIsFullIsUnreachableAfterTheConnectTimeout() throws IOException {
    // Nobody accepts, and the kernel's queue is full: further connection attempts get no answer.
    try (var full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      var queued = new ArrayList<Socket>();
      try {
        for (int i = 0; i < 8; i++) {
          var socket = new Socket();
          socket.connect(full.getLocalSocketAddress(), 200);
          queued.add(socket);
        }
      } catch (IOException e) {
        // the queue is full now
      }
      env.put("TRAINYARD_URL", "http://127.0.0.1:" + full.getLocalPort());
      env.put("TRAINYARD_TIMEOUT", "1s");

      int exit = run("status");

      for (var socket : queued) {
        socket.close();
      }
      assertThat(exit).as(stderr()).isEqualTo(3);
      assertThat(stderr().lines())
          .first()
          .isEqualTo(
              "error: cannot reach the Trainyard gateway at http://127.0.0.1:"
                  + full.getLocalPort()
                  + ": no connection within 1s");
    }
  }

  @Test
  void theCliSOwnErrorsHaveTheGatewaysJsonShapeWithOutputJson() throws IOException {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    int exit = run("--output", "json", "--url", "http://127.0.0.1:" + port, "queue");

    assertThat(exit).isEqualTo(3);
    assertThat(stderr())
        .startsWith(
            "{\"code\":\"UNREACHABLE\",\"message\":\"cannot reach the Trainyard gateway at"
                + " http://127.0.0.1:"
                + port
                + ": connection refused\",\"errors\":[{\"field\":null,\"message\":\"is it running?")
        .endsWith("\"exitStatus\":3}\n");
  }

  @Test
  void aBadTimeoutSettingIsAUsageError() {
    env.put("TRAINYARD_TIMEOUT", "soon");

    assertThat(run("status")).isEqualTo(2);
    assertThat(stderr()).startsWith("error: TRAINYARD_TIMEOUT must be a duration");
    assertThat(gateway.requests()).isEmpty();
  }

  @Test
  void everyCodeMeansOneThing() {
    assertThat(List.of(ExitStatus.values())).extracting(ExitStatus::code).doesNotHaveDuplicates();
  }
}
