package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming path and the tree path hash a line alike, whatever its member order. */
class ExportLineParserTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String EVENT_HASH = "ab".repeat(32);
  private static final String HASH = "cd".repeat(32);

  @Test
  void streamingAgreesWithTheTreeOnRandomContent() throws Exception {
    var random = new Random(42);
    var parser = new ExportLineParser();
    for (int i = 0; i < 3_000; i++) {
      var content = RandomJson.object(random, 3);
      content.put("seq", i + 1).put("action", "job.submit");
      var expected = AuditChain.newSha256().digest(CanonicalJson.bytes(content));
      var line = content.deepCopy().put("eventHash", EVENT_HASH).put("hash", HASH);

      var canonicalLine = CanonicalJson.text(line);
      assertThat(ExportLineParser.streamed(canonicalLine)).as(canonicalLine).isNotNull();
      var streamed = parser.parse(canonicalLine);
      assertThat(streamed.contentHash()).as(canonicalLine).isEqualTo(expected);
      assertThat(streamed.seq()).isEqualTo(i + 1);

      var anyOrder = parser.parse(MAPPER.writeValueAsString(line));
      assertThat(anyOrder.contentHash()).isEqualTo(expected);
    }
  }

  @Test
  void anUnsortedLineGoesThroughTheTree() {
    var line =
        "{\"seq\":1,\"b\":2,\"a\":1,\"eventHash\":\""
            + EVENT_HASH
            + "\",\"hash\":\""
            + HASH
            + "\"}";
    assertThat(catchStreamed(line)).isNull();
    var parsed = new ExportLineParser().parse(line);
    assertThat(parsed.contentHash())
        .isEqualTo(AuditChain.newSha256().digest("{\"a\":1,\"b\":2,\"seq\":1}".getBytes()));
  }

  @Test
  void recognisesStubsAndRefusesAmbiguousLines() {
    var parser = new ExportLineParser();
    var stub =
        parser.parse("{\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\",\"seq\":7}");
    assertThat(stub.stub()).isTrue();
    assertThat(stub.seq()).isEqualTo(7);

    var duplicate =
        parser.parse(
            "{\"a\":1,\"a\":2,\"eventHash\":\""
                + EVENT_HASH
                + "\",\"hash\":\""
                + HASH
                + "\",\"seq\":7}");
    assertThat(duplicate.unreadable()).contains("Duplicate");
    assertThat(parser.parse(stubText() + " {}").unreadable()).isNotNull();
    assertThat(parser.parse("[1]").unreadable()).contains("not a JSON object");
    assertThat(parser.parse("{\"seq\":1}").unreadable()).contains("eventHash");
    assertThat(
            parser
                .parse(
                    "{\"seq\":1.5,\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\"}")
                .unreadable())
        .contains("seq");
  }

  @Test
  void splitsLinesAcrossBufferBoundariesWithoutDecoding() throws Exception {
    var text = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      text.append("é€😀".repeat(i % 50)).append(i).append('\n');
    }
    text.append("last line without a line feed");
    var lines =
        new ByteLines(
            new java.io.ByteArrayInputStream(
                text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    for (int i = 0; i < 5_000; i++) {
      assertThat(new String(lines.next(), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo("é€😀".repeat(i % 50) + i);
    }
    assertThat(new String(lines.next(), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("last line without a line feed");
    assertThat(lines.next()).isNull();
  }

  @Test
  void escapesLongRunsOfControlCharacters() {
    var s = "\u0001".repeat(10_000);
    var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(s);
    assertThat(CanonicalJson.text(node)).isEqualTo("\"" + "\\u0001".repeat(10_000) + "\"");
  }

  private static String stubText() {
    return "{\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\",\"seq\":7}";
  }

  private static ChainLine catchStreamed(String line) {
    try {
      return ExportLineParser.streamed(line);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
