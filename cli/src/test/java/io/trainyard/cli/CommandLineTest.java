package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandLineTest {
  private static final Map<String, String> NO_ENV = Map.of();

  private static CommandLine parse(String... args) {
    return CommandLine.parse(List.of(args), NO_ENV);
  }

  @Test
  void globalOptionsGoBeforeOrAfterTheCommand() {
    var before = parse("--output", "json", "--url", "http://gw:8080/", "status");
    var after = parse("status", "--output=json", "--url=http://gw:8080");

    for (var line : List.of(before, after)) {
      assertThat(line.command()).isEqualTo(Command.STATUS);
      assertThat(line.output()).isEqualTo(CommandLine.Output.JSON);
      assertThat(line.url()).isEqualTo(URI.create("http://gw:8080"));
    }
  }

  @Test
  void commandOptionsAndFlags() {
    var line = parse("submit", "job.yaml", "--dry-run", "--idempotency-key=k-1");

    assertThat(line.operands()).containsExactly("job.yaml");
    assertThat(line.has("--dry-run")).isTrue();
    assertThat(line.option("--idempotency-key")).isEqualTo("k-1");
    assertThat(line.output()).isEqualTo(CommandLine.Output.TABLE);
  }

  @Test
  void shortFollowAndEndOfOptions() {
    assertThat(parse("logs", "01abc", "-f").has("--follow")).isTrue();
    assertThat(parse("submit", "--", "-odd-name.yaml").operands())
        .containsExactly("-odd-name.yaml");
  }

  @Test
  void urlAndTokenFromTheEnvironmentUnlessGiven() {
    var env = Map.of("TRAINYARD_URL", "https://trainyard.example.com/", "TRAINYARD_TOKEN", "e");

    var fromEnv = CommandLine.parse(List.of("status"), env);
    var overridden =
        CommandLine.parse(List.of("status", "--url", "http://127.0.0.1:9", "--token", "f"), env);

    assertThat(fromEnv.url()).isEqualTo(URI.create("https://trainyard.example.com"));
    assertThat(fromEnv.token()).isEqualTo("e");
    assertThat(overridden.url()).isEqualTo(URI.create("http://127.0.0.1:9"));
    assertThat(overridden.token()).isEqualTo("f");
    assertThat(parse("status").url()).isEqualTo(URI.create("http://127.0.0.1:8080"));
    assertThat(CommandLine.parse(List.of("status"), Map.of("TRAINYARD_TOKEN", " ")).token())
        .isNull();
  }

  @Test
  void tokenPastedWithItsSchemeOrABrokenLine() {
    assertThat(parse("status", "--token", "Bearer abc.def.ghi").token()).isEqualTo("abc.def.ghi");
    assertThatThrownBy(
            () -> CommandLine.parse(List.of("status"), Map.of("TRAINYARD_TOKEN", "abc.def\n.ghi")))
        .isInstanceOfSatisfying(
            CliException.class,
            e -> {
              assertThat(e.status()).isEqualTo(ExitStatus.USAGE);
              assertThat(e.getMessage()).doesNotContain("abc");
            });
  }

  @Test
  void noArgumentsMeansHelp() {
    assertThat(parse().command()).isEqualTo(Command.HELP);
    assertThat(parse("--help").command()).isEqualTo(Command.HELP);
    assertThat(parse("submit", "--help").has("--help")).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "sumbit job.yaml            | unknown command 'sumbit'",
        "status --verbose           | unknown option --verbose for status",
        "--dry-run submit job.yaml  | unknown option --dry-run",
        "quote job.yaml --dry-run   | unknown option --dry-run for quote",
        "submit job.yaml --idempotency-key | --idempotency-key needs a value",
        "logs 01abc --follow=yes    | --follow takes no value",
        "submit                     | wrong arguments for submit — usage: trainyard submit FILE",
        "status a b                 | wrong arguments for status",
        "demo now                   | wrong arguments for demo",
        "status --output yaml       | --output must be table or json, not 'yaml'",
        "status --url ftp://gw      | the gateway URL must look like http://host:port",
        "status --url localhost:80  | the gateway URL must look like http://host:port",
        "submit j.yaml --idempotency-key=a\tb | --idempotency-key must be printable ASCII",
        "statsu                     | unknown command 'statsu'; did you mean 'status'?",
        "stat                       | unknown command 'stat'; did you mean 'status'?",
        "status --wach              | unknown option --wach for status; did you mean --watch?",
        "submit j.yaml --dryrun     | unknown option --dryrun for submit; did you mean --dry-run?",
        "--watch status 01abc       | unknown option --watch; --watch is an option of status, given after",
        "queue --verbose            | unknown option --verbose for queue (see `trainyard help queue`)",
        "status --outptu json       | unknown option --outptu for status; did you mean --output?",
      })
  void usageErrors(String args, String message) {
    assertThatThrownBy(() -> parse(args.strip().split(" +")))
        .isInstanceOfSatisfying(
            CliException.class,
            e -> {
              assertThat(e.status()).isEqualTo(ExitStatus.USAGE);
              assertThat(e.getMessage()).startsWith(message);
            });
  }

  @Test
  void jobIdsCannotBecomePaths() {
    assertThat(parse("status", "01jh5n8k2q7x3v4w5y6z7a8b9c").jobId())
        .isEqualTo("01jh5n8k2q7x3v4w5y6z7a8b9c");
    assertThatThrownBy(() -> parse("cancel", "../admin").jobId())
        .isInstanceOfSatisfying(
            CliException.class, e -> assertThat(e.status()).isEqualTo(ExitStatus.USAGE));
  }
}
