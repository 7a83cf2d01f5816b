package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --help} on every command and sub-command, and {@code trainyard help COMMAND}. */
class HelpTest {
  @TempDir Path workDir;

  private record Run(int exit, String out, String err) {}

  private Run run(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            // Nothing may be asked of a gateway for help: this one does not exist.
            Map.of("TRAINYARD_URL", "http://127.0.0.1:9"),
            workDir);
    int exit = TrainyardCli.run(args, terminal);
    return new Run(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Every command, and every sub-command as "command sub". */
  private static List<String> everyPath() {
    var paths = new ArrayList<String>();
    for (var command : Command.values()) {
      paths.add(command.word());
      for (var sub : Help.subCommands(command.word())) {
        paths.add(command.word() + " " + sub);
      }
    }
    return paths;
  }

  @Test
  void everyCommandAndSubCommandHasAUsageLineOptionsAndAnExample() {
    var paths = everyPath();
    assertThat(paths).contains("submit", "algorithms publish", "audit verify", "completion zsh");
    for (var path : paths) {
      if (path.equals("help")) {
        // `trainyard --help` and `trainyard help --help` are the overview; `help help` is below.
        assertThat(run("help", "--help").out()).contains("commands:\n  submit");
        assertThat(run("help", "help").out()).startsWith("usage: trainyard help [COMMAND");
        continue;
      }
      var args = new ArrayList<>(List.of(path.split(" ")));
      args.add("--help");
      var withFlag = run(args.toArray(String[]::new));
      var viaHelp = run(("help " + path).split(" "));

      assertThat(withFlag.exit()).as(path + ": " + withFlag.err()).isZero();
      assertThat(withFlag.err()).as(path).isEmpty();
      assertThat(withFlag.out())
          .as(path)
          .startsWith("usage: trainyard " + path)
          .contains("\nglobal options:\n  --url URL")
          .containsPattern("\nexamples:\n  (\\./)?trainyard |\nexamples:\n  source ");
      assertThat(viaHelp.out()).as(path).isEqualTo(withFlag.out());
    }
  }

  @Test
  void everyOptionTheParserTakesIsDescribed() {
    for (var command : Command.values()) {
      var described = new HashSet<String>();
      for (var topic : Help.topics()) {
        if (topic.path().equals(command.word()) || topic.path().startsWith(command.word() + " ")) {
          topic.options().forEach(o -> described.add(o.flag()));
        }
      }
      // "-f, --follow" describes --follow.
      var flags = new HashSet<String>();
      described.forEach(d -> flags.add(d.endsWith(",") ? d.substring(0, d.length() - 1) : d));
      for (var topic : Help.topics()) {
        for (var option : topic.options()) {
          if (option.name().startsWith("-f, ")) {
            flags.add("--follow");
          }
        }
      }
      assertThat(flags).as(command.word()).containsAll(command.options());
    }
  }

  @Test
  void subCommandsAreListedInTheirCommandsHelp() {
    var help = run("algorithms", "--help");

    assertThat(help.out())
        .contains("commands:\n  algorithms list")
        .contains("  algorithms publish NAME VERSION FILE  Publish a new version of an algorithm");
  }

  @Test
  void anUnknownTopicSuggestsTheClosest() {
    var command = run("help", "sbumit");
    var sub = run("help", "algorithms", "pubilsh");
    var completion = run("completion", "fish");

    assertThat(command.exit()).isEqualTo(2);
    assertThat(command.err()).startsWith("error: unknown command 'sbumit'; did you mean 'submit'?");
    assertThat(sub.exit()).isEqualTo(2);
    assertThat(sub.err())
        .startsWith("error: unknown algorithms command 'pubilsh'; did you mean 'publish'?");
    assertThat(completion.exit()).isEqualTo(2);
    assertThat(completion.err())
        .startsWith(
            "error: unknown completion command 'fish' — usage: trainyard completion bash|zsh");
  }

  @Test
  void closestWords() {
    assertThat(Suggest.closest("sumbit", Help.commandWords())).contains("submit");
    assertThat(Suggest.closest("qeue", Help.commandWords())).contains("queue");
    assertThat(Suggest.closest("log", Help.commandWords())).contains("logs");
    assertThat(Suggest.closest("xyzzy", Help.commandWords())).isEmpty();
    assertThat(Suggest.closest("--dryrun", List.of("--dry-run", "--wait"))).contains("--dry-run");
  }
}
