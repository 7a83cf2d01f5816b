package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.assertSameTree;
import static io.trainyard.kubeflow.TestDocuments.document;
import static io.trainyard.kubeflow.TestDocuments.tree;
import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.spec.JobSpecValidator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One document per kind, together covering every replica type: {@code input.yaml} reads into {@code
 * spec.yaml} with the warnings of {@code warnings.txt} (one a line), renders back to {@code
 * rendered.yaml}; input and rendered document both pass the operator's CRD schema, the round trip
 * is lossless, and the rendered document reads back into the same spec.
 *
 * <p>Every directory under {@code golden/} whose {@code input.yaml} is a {@code kubeflow.org}
 * document is one case, found by listing the directory, so a new golden cannot be left out. A
 * document that is lossy by nature (what {@code kubectl get -o yaml} prints, a Go client's
 * serialisation artefacts) says so in a line {@value #WITHOUT_ARTEFACTS} of its {@code input.yaml}:
 * its round trip is compared with the input less the fields the reader warns it leaves out ({@link
 * RoundTripNormalization#withoutArtefacts}); every other golden must round-trip as it is. An input
 * that people write although the operator's CRD does not allow it lists each error the CRD check
 * reports for it in a line {@value #CRD_ERROR}{@code <error>}; any other input must pass the CRD.
 *
 * <p>{@code golden/index.txt} lists the directories with an {@code input.yaml}, for readers of the
 * test jar, which cannot list a directory (the Kubernetes backend's {@code GoldenCorpusIT}); {@link
 * #theIndexListsEveryGoldenDocument} keeps it true.
 *
 * <p>{@code mvn test -Dgolden.write=true} rewrites the expected files (and the index) from the
 * code, for review.
 */
class GoldenFilesTest {
  private static final boolean WRITE = Boolean.getBoolean("golden.write");
  static final String WITHOUT_ARTEFACTS = "# round-trip: without-artefacts";
  static final String CRD_ERROR = "# crd-error: ";
  private static final Path GOLDEN = Path.of("src/test/resources/golden");

  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @ParameterizedTest
  @MethodSource("kubeflowGoldens")
  void convertsBothWaysExactly(String name) throws IOException {
    var dir = "golden/" + name + "/";
    var input = document(dir + "input.yaml");
    var lines =
        new String(TestDocuments.bytes(dir + "input.yaml"), StandardCharsets.UTF_8)
            .lines()
            .toList();
    assertThat(crd.check(input))
        .as("input against the CRD")
        .isEqualTo(
            lines.stream()
                .filter(l -> l.startsWith(CRD_ERROR))
                .map(l -> l.substring(CRD_ERROR.length()))
                .toList());

    var conversion = reader.read(input);
    var mpiOperator =
        input.path("apiVersion").asText().equals(KubeflowKind.MPI_V2_API_VERSION)
            ? KubeflowWriter.MpiOperator.MPI_OPERATOR_V2
            : KubeflowWriter.MpiOperator.TRAINING_OPERATOR;
    var rendered =
        writer.write(conversion.job(), KubeflowWriter.RenderOptions.DEFAULTS, mpiOperator);
    if (WRITE) {
      write(dir + "spec.yaml", TestDocuments.text(conversion.job()));
      write(dir + "rendered.yaml", TestDocuments.text(rendered));
      write(dir + "warnings.txt", String.join("\n", conversion.warnings()));
    }
    assertSameTree(tree(conversion.job()), tree(TestDocuments.spec(dir + "spec.yaml")));
    assertThat(conversion.warnings()).isEqualTo(warnings(dir + "warnings.txt"));
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();

    assertSameTree(rendered, document(dir + "rendered.yaml"));
    assertThat(crd.check(rendered)).as("rendered document against the CRD").isEmpty();
    var lossy = lines.contains(WITHOUT_ARTEFACTS);
    assertSameTree(
        RoundTripNormalization.normalize(rendered),
        RoundTripNormalization.normalize(
            lossy ? RoundTripNormalization.withoutArtefacts(input) : input));
    assertThat(reader.read(rendered).job()).isEqualTo(conversion.job());
    assertThat(rendered.path("apiVersion").asText()).isEqualTo(input.path("apiVersion").asText());
  }

  @Test
  void theIndexListsEveryGoldenDocument() throws IOException {
    var listed = withInput().toList();
    if (WRITE) {
      write("golden/index.txt", String.join("\n", listed));
    }
    assertThat(warnings("golden/index.txt")).isEqualTo(listed);
  }

  static Stream<String> kubeflowGoldens() throws IOException {
    return withInput()
        .filter(
            name ->
                document("golden/" + name + "/input.yaml")
                    .path("apiVersion")
                    .asText()
                    .startsWith("kubeflow.org/"))
        .toList()
        .stream();
  }

  /** The golden directories holding an input document, by name. */
  private static Stream<String> withInput() throws IOException {
    try (var dirs = Files.list(GOLDEN)) {
      return dirs
          .filter(d -> Files.isRegularFile(d.resolve("input.yaml")))
          .map(d -> d.getFileName().toString())
          .sorted()
          .toList()
          .stream();
    }
  }

  private static List<String> warnings(String resource) {
    var text = new String(TestDocuments.bytes(resource), StandardCharsets.UTF_8);
    return text.lines().filter(l -> !l.isBlank()).toList();
  }

  private static void write(String resource, String text) throws IOException {
    var header =
        resource.endsWith(".txt")
            ? ""
            : "# Generated by GoldenFilesTest with -Dgolden.write=true from input.yaml; reviewed.\n";
    Files.writeString(Path.of("src/test/resources", resource), header + text + "\n");
  }
}
