package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KubeflowDocumentsTest {
  private static final String PLAIN =
      """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata: {name: anchors}
      spec:
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            restartPolicy: OnFailure
            template:
              spec:
                containers:
                  - name: pytorch
                    image: registry.example.com/train:1.0
                    command: [python, train.py]
                    resources: {limits: {nvidia.com/gpu: 1}}
          Worker:
            replicas: 3
            restartPolicy: OnFailure
            template:
              spec:
                containers:
                  - name: pytorch
                    image: registry.example.com/train:1.0
                    command: [python, train.py]
                    resources: {limits: {nvidia.com/gpu: 1}}
      """;

  private final KubeflowReader reader = new KubeflowReader();

  @Test
  void anchorsAliasesAndMergeKeysReadAsTheirExpansion() {
    var anchored =
        yaml(
            """
            # Users factor their YAML with anchors; the document means its expansion.
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata: {name: anchors}
            spec:
              pytorchReplicaSpecs:
                Master: &master
                  replicas: 1
                  restartPolicy: OnFailure   # a comment at the end of a line
                  template:
                    spec:
                      containers:
                        - name: pytorch
                          image: &image registry.example.com/train:1.0
                          command: [python, train.py]
                          resources: &gpu {limits: {nvidia.com/gpu: 1}}
                Worker:
                  <<: *master
                  replicas: 3
            """);
    assertThat(anchored).isEqualTo(yaml(PLAIN));
    var scalarAlias =
        yaml(
            PLAIN
                .replace(
                    "image: registry.example.com/train:1.0\n",
                    "image: &i registry.example.com/train:1.0\n")
                .replaceFirst(
                    "(?s)(Worker:.*?)image: registry.example.com/train:1.0", "$1image: *i"));
    assertThat(scalarAlias).isEqualTo(yaml(PLAIN));
    assertThat(reader.read(anchored).job()).isEqualTo(reader.read(yaml(PLAIN)).job());
  }

  @Test
  void commentsAndALeadingOrTrailingSeparatorAreFine() {
    var withComments =
        "# a job\n---\n"
            + PLAIN.replace("kind: PyTorchJob", "kind: PyTorchJob # the kind")
            + "---\n";
    assertThat(yaml(withComments)).isEqualTo(yaml(PLAIN));
  }

  @Test
  void jsonIsYaml() {
    var json =
        "{\"apiVersion\": \"kubeflow.org/v1\", \"kind\": \"PyTorchJob\", \"metadata\": {\"name\":"
            + " \"j\"}, \"spec\": {\"pytorchReplicaSpecs\": {\"Master\": {\"template\": {\"spec\":"
            + " {\"containers\": [{\"name\": \"pytorch\", \"image\": \"i\", \"resources\":"
            + " {\"limits\": {\"cpu\": 0.5}}}]}}}}}}";
    var job = reader.read(yaml(json)).job();
    assertThat(job.spec().replicas()).containsEntry("master", 1);
    assertThat(job.spec().resources().cpus()).isEqualTo(0.5);
  }

  @Test
  void jsonIndentedWithTabsIsRead() {
    var json = "{\n\t\"apiVersion\": \"kubeflow.org/v1\",\n\t\"n\": [1,\n\t\t0.5]\n}\n";
    assertThat(yaml(json)).isEqualTo(yaml("{apiVersion: kubeflow.org/v1, n: [1, 0.5]}"));
    assertRefused("{\"a\": 1, \"a\": 2}", "a", "appears twice in the same mapping");
    assertRefused("{\"a\": 1} {\"b\": 2}", "", "the body holds more than one JSON document");
  }

  @Test
  void severalDocumentsInOneBodyAreRefused() {
    assertRefused(
        PLAIN + "---\n" + PLAIN,
        "",
        "the body holds more than one YAML document (separated by ---); send one job per request");
  }

  @Test
  void duplicateKeysAreRefusedNotLastWins() {
    assertRefused(
        PLAIN.replace("metadata: {name: anchors}", "metadata: {name: anchors, name: other}"),
        "metadata.name",
        "appears twice in the same mapping");
  }

  @Test
  void mergesTheParserCannotOrderAreRefused() {
    var base = "base: &b {x: 1}\n";
    assertRefused(
        base + "m:\n  x: 2\n  <<: *b\n",
        "m.<<",
        "comes after other keys; write the <<: line first");
    assertRefused(base + "c: &c {y: 1}\nm:\n  <<: [*b, *c]\n", "m.<<", "merges several anchors");
  }

  @Test
  void anEmptyOrBrokenBodyIsRefused() {
    assertRefused("", "", "the body is empty");
    assertRefused("# nothing but a comment\n", "", "the body is empty");
    assertRefused("a: [1, 2\n", "", "the body is not valid YAML or JSON");
    assertRefused("a: *nowhere\n", "", "the body is not valid YAML or JSON");
  }

  @Test
  void aBillionLaughsIsRefusedBeforeItExpands() {
    var bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      var prev = (char) (c - 1);
      bomb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        bomb.append(i == 0 ? "" : ", ").append('*').append(prev);
      }
      bomb.append("]\n");
    }
    assertRefused(bomb.toString(), "c[0]", "uses *b, an anchor that itself uses aliases");
  }

  @Test
  void nestedAliasesAreRefusedRatherThanReadAsEmpty() {
    // Jackson's replaying parser would read c as [[], []], silently.
    assertRefused(
        "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
        "c[0]",
        "uses *b, an anchor that itself uses aliases");
  }

  /**
   * A body without anchors is read in one YAML pass: the same tree as the two passes every body
   * once took, for every document the tests hold, and the same refusal for every way a body is
   * refused.
   */
  @Test
  void aBodyReadInOnePassGivesWhatTheTwoPassesGive() throws Exception {
    var root = java.nio.file.Path.of("src/test/resources");
    List<java.nio.file.Path> documents;
    try (var files = java.nio.file.Files.walk(root)) {
      documents =
          files
              .filter(f -> f.toString().endsWith(".yaml") && !f.startsWith(root.resolve("crds")))
              .toList();
    }
    assertThat(documents).hasSizeGreaterThan(100);
    for (var document : documents) {
      var body = java.nio.file.Files.readAllBytes(document);
      assertSameOutcome(document.toString(), body);
    }
    for (var body :
        List.of(
            PLAIN,
            "",
            "a: 1\n---\nb: 2\n",
            "a: 1\na: 2\n",
            "a: 1\n---\n",
            "a: [1, 2\n",
            "image: {{ .Values.image }}\n",
            "a: {b: [1, {c: 1e999999999}]}\n",
            "a: {\"\": 1e999999999}\n",
            "a: [x, \"\\0\"]\n",
            "a: {\"b\\0\": 1}\n",
            "a: .inf\n",
            "a: " + "9".repeat(100_000) + "\n",
            "a: 12345678901234567890123456789012345678901\n")) {
      assertSameOutcome(body, body.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void assertSameOutcome(String what, byte[] body) {
    Object once;
    Object twice;
    try {
      once = KubeflowDocuments.parseSingle(body);
    } catch (KubeflowConversionException e) {
      once = e.errors();
    }
    try {
      twice = KubeflowDocuments.readInTwoPasses(body);
    } catch (KubeflowConversionException e) {
      twice = e.errors();
    }
    assertThat(once).as(what).isEqualTo(twice);
  }

  @Test
  void aParsersMessageReachesTheCallerWithoutJavaClassNames() {
    assertThat(
            KubeflowDocuments.readerWords(
                "java.io.CharConversionException: Invalid UTF-8 start byte 0xfe (at char #1)"))
        .isEqualTo("Invalid UTF-8 start byte 0xfe (at char #1)");
    assertThat(
            KubeflowDocuments.readerWords(
                "Document nesting depth (1001) exceeds the maximum allowed (1000, from"
                    + " `StreamReadConstraints.getMaxNestingDepth()`)"))
        .doesNotContain("StreamReadConstraints")
        .contains("nesting depth (1001)");
    assertThat(
            KubeflowDocuments.readerWords(
                "Unexpected org.snakeyaml.engine.v2.events.MappingStartEvent at line 2"))
        .isEqualTo("Unexpected YAML event at line 2");
    assertThatThrownBy(
            () -> KubeflowDocuments.parseSingle("[".repeat(1_001).getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors().get(0).message())
                    .doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Z]"));
  }

  @Test
  void overlongAndSurrogateEncodingsAreNotUtf8() {
    for (var bytes :
        java.util.List.of(
            new byte[] {'i', ':', ' ', 'p', 'y', (byte) 0xC0, (byte) 0xAF, 'x'}, // overlong '/'
            new byte[] {'i', ':', ' ', (byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/'
            new byte[] {
              'i',
              ':',
              ' ',
              (byte) 0xED,
              (byte) 0xA0,
              (byte) 0x80,
              (byte) 0xED,
              (byte) 0xB0,
              (byte) 0x80
            }, // CESU-8 U+10000
            new byte[] {'{', '"', 'i', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'})) {
      assertThatThrownBy(() -> KubeflowDocuments.parseSingle(bytes))
          .isInstanceOfSatisfying(
              KubeflowConversionException.class,
              e ->
                  assertThat(e.errors().get(0).message())
                      .startsWith("the body is not valid UTF-8 (at byte"));
    }
    // Well-formed UTF-8, a byte-order mark and all, is read as before.
    var bom = "\uFEFFapiVersion: x\n".getBytes(StandardCharsets.UTF_8);
    assertThat(KubeflowDocuments.parseSingle(bom).path("apiVersion").asText()).isEqualTo("x");
  }

  private static void assertRefused(String body, String field, String message) {
    assertThatThrownBy(() -> KubeflowDocuments.parseSingle(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .satisfies(
                        error -> {
                          assertThat(error.field()).isEqualTo(field);
                          assertThat(error.message()).startsWith(message);
                        }));
  }
}
