package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion scripts run by the real shells: bash registers and answers through {@code complete
 * -F} with {@code COMP_WORDS}/{@code COMP_CWORD} as bash sets them on TAB; zsh parses the script
 * ({@code zsh -n}) and its function answers with {@code words}/{@code CURRENT}, {@code compadd} and
 * {@code _files} replaced by ones that print what they were given. Job ids come from a {@code
 * trainyard} on the PATH that prints two, as {@code trainyard status --quiet} would.
 */
class CompletionTest {
  @TempDir Path dir;

  @BeforeEach
  void fakeCliAndFiles() throws IOException {
    var bin = Files.createDirectories(dir.resolve("bin"));
    var fake = bin.resolve("trainyard");
    Files.writeString(
        fake,
        "#!/bin/sh\n"
            + "[ \"$TRAINYARD_NO_BUILD\" = 1 ] || exit 9\n"
            + "[ \"$1 $2\" = 'status --quiet' ] || exit 9\n"
            + "echo 01aaaaaaaaaaaaaaaaaaaaaaaa\necho 01bbbbbbbbbbbbbbbbbbbbbbbb\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("job.yaml"), "kind: TrainingJob\n");
    Files.writeString(dir.resolve("jobs.json"), "{}\n");
    Files.createDirectories(dir.resolve("export-1"));
  }

  private String script(String shell) {
    var out = new ByteArrayOutputStream();
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            Map.of(),
            dir);
    assertThat(TrainyardCli.run(new String[] {"completion", shell}, terminal)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  private String shell(String program, String code) throws Exception {
    var process =
        new ProcessBuilder(program, "-c", code)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  private static boolean installed(String program) {
    for (var path : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(path, program))) {
        return true;
      }
    }
    return false;
  }

  /** Runs the completion for each line of words (the last one being completed). */
  private String bash(List<String> lines) throws Exception {
    Files.writeString(dir.resolve("trainyard.bash"), script("bash"));
    var code = new StringBuilder();
    code.append("export PATH=\"$PWD/bin:$PATH\"; source ./trainyard.bash || exit 1\n");
    code.append("complete -p trainyard ./trainyard\n");
    for (var line : lines) {
      code.append("COMP_WORDS=(").append(line).append("); ");
      code.append("COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _trainyard; ");
      code.append("printf '%s => %s\\n' \"").append(line.replace("\"", "\\\"")).append("\" ");
      code.append("\"$(printf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' ')\"\n");
    }
    return shell("bash", code.toString());
  }

  @Test
  void bashCompletesCommandsSubCommandsOptionsValuesFilesAndJobIds() throws Exception {
    assumeTrue(installed("bash"), "bash is not installed");

    var output =
        bash(
            List.of(
                "trainyard \"\"",
                "trainyard su",
                "trainyard q",
                "trainyard status \"\"",
                "trainyard --url http://gw:8080 logs 01a",
                "trainyard status --w",
                "trainyard submit \"\"",
                "trainyard submit job.yaml --",
                "trainyard --output \"\"",
                "trainyard metrics 01a --goal m",
                "trainyard algorithms p",
                "trainyard algorithms create j",
                "trainyard audit verify exp",
                "trainyard completion \"\"",
                "trainyard help algorithms d",
                "trainyard queue \"\""));

    assertThat(output.lines())
        .contains(
            "complete -F _trainyard trainyard",
            "complete -F _trainyard ./trainyard",
            "trainyard \"\" => " + String.join(" ", new TreeSet<>(Help.commandWords())) + " ",
            "trainyard su => submit ",
            "trainyard q => queue quote ",
            "trainyard status \"\" => 01aaaaaaaaaaaaaaaaaaaaaaaa 01bbbbbbbbbbbbbbbbbbbbbbbb ",
            "trainyard --url http://gw:8080 logs 01a => 01aaaaaaaaaaaaaaaaaaaaaaaa ",
            "trainyard status --w => --watch ",
            "trainyard submit \"\" => bin export-1 job.yaml jobs.json trainyard.bash ",
            "trainyard submit job.yaml -- => --dry-run --help --idempotency-key --output"
                + " --timeout --token --url --wait ",
            "trainyard --output \"\" => json table ",
            "trainyard metrics 01a --goal m => max min ",
            "trainyard algorithms p => publish ",
            "trainyard algorithms create j => job.yaml jobs.json ",
            "trainyard audit verify exp => export-1 ",
            "trainyard completion \"\" => bash zsh ",
            "trainyard help algorithms d => default ",
            "trainyard queue \"\" =>  "); // nothing to complete: an empty list
  }

  @Test
  void zshParsesTheScriptAndItsFunctionCompletes() throws Exception {
    assumeTrue(installed("zsh"), "zsh is not installed (apt-get install zsh); .ci/run installs it");
    Files.writeString(dir.resolve("_trainyard"), script("zsh"));

    shell("zsh", "zsh -n ./_trainyard");
    var output =
        shell(
            "zsh",
            """
            export PATH="$PWD/bin:$PATH"
            compdef() { print -r -- "compdef $*"; }
            compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -r -- "compadd $*"; }
            _files() { print -r -- "_files $*"; }
            source ./_trainyard
            t() { words=("$@"); CURRENT=$#; print -rn -- "$* => "; _trainyard; }
            t trainyard ''
            t trainyard status ''
            t trainyard submit j
            t trainyard submit --
            t trainyard --output ''
            t trainyard algorithms ''
            t trainyard audit verify ''
            t trainyard help completion ''
            """);

    assertThat(output.lines())
        .contains(
            "compdef _trainyard trainyard ./trainyard",
            "trainyard  => compadd " + String.join(" ", Help.commandWords()),
            "trainyard status  => compadd 01aaaaaaaaaaaaaaaaaaaaaaaa 01bbbbbbbbbbbbbbbbbbbbbbbb",
            "trainyard submit j => _files ",
            "trainyard submit -- => compadd --dry-run --idempotency-key --timeout --wait --url"
                + " --token --output --help",
            "trainyard --output  => compadd table json",
            "trainyard algorithms  => compadd list show create publish default",
            "trainyard audit verify  => _files -/",
            "trainyard help completion  => compadd bash zsh");
  }

  @Test
  void theScriptsKnowEveryCommand() {
    for (var shell : Completion.SHELLS) {
      var script = script(shell);
      for (var command : Command.values()) {
        assertThat(script).as(shell).contains(command.word());
      }
    }
  }
}
