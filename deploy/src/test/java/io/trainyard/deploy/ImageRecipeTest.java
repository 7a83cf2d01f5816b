package io.trainyard.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The image recipes checked line by line against what the Deployment and the build expect, since no
 * engine runs here to build them: a maintained JRE 17 base pinned by tag, a numeric non-root user
 * (the one the Deployment runs as), the version and git commit as OCI labels, the jar the build
 * writes, heap sized from the container's memory, an exec-form entrypoint, no remote downloads.
 */
class ImageRecipeTest {
  private static final Path DEPLOY = Path.of(System.getProperty("trainyard.deploy.dir", "."));

  @ParameterizedTest
  @CsvSource({
    "gateway.Dockerfile, gateway/target/trainyard.jar, ../gateway/pom.xml, trainyard",
    "cli.Dockerfile, cli/target/trainyard-cli.jar, ../cli/pom.xml, trainyard-cli"
  })
  void followsTheChecklist(String file, String jar, String pom, String finalName)
      throws IOException {
    var lines = instructions(DEPLOY.resolve("image").resolve(file));
    var from = only(lines, "FROM");
    assertThat(from).matches("FROM eclipse-temurin:17-jre-[a-z]+");
    assertThat(only(lines, "USER")).isEqualTo("USER 10001:10001");
    var labels = only(lines, "LABEL");
    assertThat(labels)
        .contains("org.opencontainers.image.version=\"${VERSION}\"")
        .contains("org.opencontainers.image.revision=\"${REVISION}\"");
    assertThat(lines).contains("ARG VERSION", "ARG REVISION");
    assertThat(lines)
        .filteredOn(l -> l.startsWith("COPY "))
        .first()
        .asString()
        .endsWith(jar + " /opt/trainyard/" + Path.of(jar).getFileName());
    // The jar the COPY names is the one the module's shade plugin writes.
    assertThat(Files.readString(DEPLOY.resolve(pom)))
        .contains("<finalName>" + finalName + "</finalName>");
    assertThat(only(lines, "ENV"))
        .contains("-XX:MaxRAMPercentage=")
        .contains("-XX:+ExitOnOutOfMemoryError");
    assertThat(only(lines, "ENTRYPOINT")).startsWith("ENTRYPOINT [\"java\", \"-jar\"");
    assertThat(lines).noneMatch(l -> l.startsWith("ADD "));
    assertThat(lines).noneMatch(l -> l.matches("(?i).*\\b(curl|wget)\\b.*"));
    assertThat(lines).noneMatch(l -> l.contains(":latest"));
    // USER comes after the last RUN and COPY: nothing runs as root at run time.
    assertThat(indexOf(lines, "USER"))
        .isGreaterThan(lastIndexOf(lines, "RUN"))
        .isGreaterThan(lastIndexOf(lines, "COPY"));
  }

  @org.junit.jupiter.api.Test
  void theGatewayImageMatchesTheDeployment() throws IOException {
    var lines = instructions(DEPLOY.resolve("image/gateway.Dockerfile"));
    assertThat(only(lines, "EXPOSE")).isEqualTo("EXPOSE 8080 8081");
    var deployment = Files.readString(DEPLOY.resolve("base/deployment.yaml"));
    assertThat(deployment)
        .contains("runAsUser: 10001")
        .contains("containerPort: 8080")
        .contains("containerPort: 8081")
        .contains("args: [server, /etc/trainyard/trainyard.yml]");
    assertThat(only(lines, "CMD")).isEqualTo("CMD [\"server\", \"/etc/trainyard/trainyard.yml\"]");
  }

  @org.junit.jupiter.api.Test
  void theGatewayStartsWithTheClassArchiveTheImageBuilt() throws IOException {
    var lines = instructions(DEPLOY.resolve("image/gateway.Dockerfile"));
    var archive = "/opt/trainyard/trainyard.jsa";
    // Built in the image, for its JDK and the jar's path there, before USER (root owns it), by the
    // script the build uses, copied in.
    var script = "/opt/trainyard/train-archive.sh";
    assertThat(lines)
        .filteredOn(l -> l.startsWith("COPY "))
        .anyMatch(l -> l.endsWith("gateway/src/cds/train-archive.sh " + script));
    assertThat(lines)
        .filteredOn(l -> l.startsWith("RUN "))
        .anyMatch(l -> l.contains(script + " java /opt/trainyard/trainyard.jar " + archive + " "));
    assertThat(Files.readString(DEPLOY.resolve("../gateway/src/cds/train-archive.sh")))
        .contains("-XX:ArchiveClassesAtExit=\"$archive\"");
    assertThat(only(lines, "ENV")).contains("-XX:SharedArchiveFile=" + archive);
    // The Deployment's JAVA_TOOL_OPTIONS replaces the image's: it must name the archive too.
    assertThat(Files.readString(DEPLOY.resolve("base/deployment.yaml")))
        .contains("-XX:SharedArchiveFile=" + archive);
  }

  /** The recipe's instructions, continuation lines joined, comments and blank lines left out. */
  private static List<String> instructions(Path file) throws IOException {
    var result = new ArrayList<String>();
    var current = new StringBuilder();
    for (var line : Files.readAllLines(file)) {
      var trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      current.append(trimmed);
      result.add(SPACES.matcher(current.toString()).replaceAll(" "));
      current.setLength(0);
    }
    return result;
  }

  private static final Pattern SPACES = Pattern.compile("\\s+");

  private static String only(List<String> lines, String instruction) {
    var found = lines.stream().filter(l -> l.startsWith(instruction + " ")).toList();
    assertThat(found).as(instruction).hasSize(1);
    return found.get(0);
  }

  private static int indexOf(List<String> lines, String instruction) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(instruction + " ")) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(List<String> lines, String instruction) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith(instruction + " ")) {
        return i;
      }
    }
    return -1;
  }
}
