package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte-level fast path and the tree path hash a line alike, whatever its spelling; the fast
 * path takes exactly the canonical lines and leaves every other one to the tree.
 */
class ExportLineParserTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String EVENT_HASH = "ab".repeat(32);
  private static final String HASH = "cd".repeat(32);

  @Test
  void theFastPathAgreesWithTheTreeOnRandomContent() throws Exception {
    var random = new Random(42);
    var parser = new ExportLineParser();
    for (int i = 0; i < 3_000; i++) {
      var content = RandomJson.object(random, 3);
      content.put("seq", i + 1).put("action", "job.submit");
      var expected = AuditChain.newSha256().digest(CanonicalJson.bytes(content));
      var line = content.deepCopy().put("eventHash", EVENT_HASH).put("hash", HASH);

      var canonicalLine = CanonicalJson.text(line);
      var fast = parser.parse(canonicalLine);
      assertThat(fast.canonical()).as(canonicalLine).isTrue();
      assertThat(fast.contentHash()).as(canonicalLine).isEqualTo(expected);
      assertThat(fast.seq()).isEqualTo(i + 1);

      var asJacksonWritesIt = MAPPER.writeValueAsString(line);
      var anyOrder = parser.parse(asJacksonWritesIt);
      assertThat(anyOrder.contentHash()).isEqualTo(expected);
      assertThat(anyOrder.canonical()).isEqualTo(asJacksonWritesIt.equals(canonicalLine));
    }
  }

  @Test
  void whatTheFastPathAcceptsAfterARandomEditTheTreeReadsAndHashesAlike() throws Exception {
    // Byte edits of canonical lines: whenever the fast path still takes a line, the line must be
    // JSON that the tree path reads, with the very same content hash.
    var random = new Random(7);
    var parser = new ExportLineParser();
    var pieces =
        new String[] {"\\", "\"", ",", ":", "{", "}", "[", "]", "0", "-", ".", "e", "u", " ", "é"};
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      var content = RandomJson.object(random, 3).put("seq", i + 1);
      var line = CanonicalJson.bytes(content.put("eventHash", EVENT_HASH).put("hash", HASH));
      // Edits of the bytes, so that they can also break UTF-8 sequences.
      int at = random.nextInt(line.length);
      var piece = bytes(pieces[random.nextInt(pieces.length)]);
      var edited = new java.io.ByteArrayOutputStream();
      edited.write(line, 0, at);
      if (random.nextBoolean()) {
        edited.write(piece, 0, piece.length);
        edited.write(line, at, line.length - at);
      } else {
        edited.write(line, at + 1, line.length - at - 1);
      }
      var editedBytes = edited.toByteArray();
      var parsed = parser.parse(editedBytes);
      if (parsed.canonical()) {
        accepted++;
        var tree = MAPPER.readTree(editedBytes);
        assertThat(tree.isObject()).isTrue();
        assertThat(CanonicalJson.bytes(tree)).isEqualTo(editedBytes);
        if (!parsed.stub()) {
          var node = (com.fasterxml.jackson.databind.node.ObjectNode) tree;
          node.remove("eventHash");
          node.remove("hash");
          assertThat(parsed.contentHash())
              .isEqualTo(AuditChain.newSha256().digest(CanonicalJson.bytes(node)));
        }
      }
    }
    assertThat(accepted).isPositive();
  }

  @Test
  void aNonCanonicalButEquivalentLineHashesAlikeThroughTheTree() {
    var canonical = line("\"a\":1,\"b\":[true,null],", "\"seq\":1");
    var spellings =
        List.of(
            line("\"b\":[true,null],\"a\":1,", "\"seq\":1"), // members out of order
            line("\"a\": 1,\"b\":[true, null],", "\"seq\":1"), // whitespace
            line("\"a\":1.0,\"b\":[true,null],", "\"seq\":1"), // another spelling of 1
            line("\"a\":1e0,\"b\":[true,null],", "\"seq\":1"),
            line("\"\\u0061\":1,\"b\":[true,null],", "\"seq\":1"), // an escaped name
            "{\"seq\":1,\"hash\":\""
                + HASH
                + "\",\"eventHash\":\""
                + EVENT_HASH
                + "\",\"b\":[true,null],\"a\":1}");
    var parser = new ExportLineParser();
    var expected = parser.parse(canonical);
    assertThat(expected.canonical()).isTrue();
    for (var spelling : spellings) {
      var parsed = parser.parse(spelling);
      assertThat(parsed.canonical()).as(spelling).isFalse();
      assertThat(parsed.unreadable()).as(spelling).isNull();
      assertThat(parsed.contentHash()).as(spelling).isEqualTo(expected.contentHash());
    }
  }

  @Test
  void escapesAreCanonicalOnlyAsJsonStringifyWritesThem() {
    assertFast("\"k\":\"q\\\"b\\\\n\\n\\t\\b\\f\\r\\u0001\\u001f\\u000b\"");
    assertFast("\"k\":\"</script>\u007f\u2028\"");
    assertSlow("\"k\":\"\\/\""); // JSON.stringify does not escape the solidus
    assertSlow("\"k\":\"\\u0041\"");
    assertSlow("\"k\":\"\\u000a\""); // has the short form \n
    assertSlow("\"k\":\"\\u001F\""); // upper-case hex
    assertSlow("\"k\":\"\\u00e9\""); // non-ASCII is written as is
    assertSlow("\"k\":\"\\ud83d\\ude00\"");
    assertUnreadable("\"k\":\"\u0001\""); // a raw control character is not JSON at all
  }

  @Test
  void numbersAreCanonicalOnlyAsEcmaScriptPrintsThem() {
    for (var n :
        List.of(
            "0",
            "-1",
            "42",
            "999999999999999",
            "9007199254740991",
            "0.1",
            "-0.5",
            "0.30000000000000004",
            "1e+21",
            "1e-7",
            "1.5e+300",
            "5e-324",
            "0.000001",
            "123456789012345680000")) {
      assertFast("\"n\":" + n);
    }
    for (var n :
        List.of(
            "-0",
            "1.0",
            "1E+21",
            "1e21",
            "0.10",
            "1e-07",
            "1000000000000000000000",
            "0.0000001",
            "9007199254740993",
            "1.50",
            "2e1")) {
      assertSlow("\"n\":" + n);
    }
    assertUnreadable("\"n\":01");
    assertUnreadable("\"n\":+1");
    assertUnreadable("\"n\":.5");
  }

  @Test
  void unicodeIsCanonicalAsWellFormedUtf8AndNamesSortByUtf16Units() {
    assertFast("\"k\":\"naïve € 😀 \ufb33\"");
    // U+1F600 (a surrogate pair, D83D DE00) sorts before U+FB33 by UTF-16 code units, although
    // its UTF-8 bytes sort after.
    assertFast("\"\\n\":1,\"1\":2,\"\u0080\":3,\"ö\":4,\"€\":5,\"😀\":6,\"\ufb33\":7");
    assertSlow("\"\ufb33\":7,\"😀\":6");
    var parser = new ExportLineParser();
    var overlong = bytes("{\"a\":\"\"," + tail("\"seq\":1") + "}");
    int quote = indexOf(overlong, "\"\"") + 1;
    var broken = new ArrayList<byte[]>();
    // An overlong '/', an encoded surrogate, a lone continuation byte, a truncated sequence.
    for (var bad : new int[][] {{0xc0, 0xaf}, {0xed, 0xa0, 0x80}, {0x80}, {0xe2, 0x82}}) {
      broken.add(insert(overlong, quote, bad));
    }
    for (var line : broken) {
      var parsed = parser.parse(line);
      assertThat(parsed.canonical()).isFalse();
    }
  }

  @Test
  void nestedObjectsAreCheckedAtEveryLevel() {
    assertFast("\"d\":{\"a\":{\"x\":[{\"p\":1,\"q\":{}}],\"y\":[]},\"b\":[[],[[1]]]}");
    assertSlow("\"d\":{\"a\":{\"x\":[{\"q\":{},\"p\":1}],\"y\":[]}}");
    var deep = "{\"a\":".repeat(100) + "1" + "}".repeat(100);
    assertSlow("\"d\":" + deep);
  }

  @Test
  void duplicateNamesAreRefusedAtAnyLevel() {
    var parser = new ExportLineParser();
    assertThat(parser.parse(line("\"a\":1,\"a\":1,", "\"seq\":7")).unreadable())
        .contains("Duplicate");
    assertThat(parser.parse(line("\"d\":{\"x\":1,\"x\":2},", "\"seq\":7")).unreadable())
        .contains("Duplicate");
    assertThat(
            parser
                .parse(
                    "{\"eventHash\":\""
                        + EVENT_HASH
                        + "\",\"hash\":\""
                        + HASH
                        + "\",\"seq\":7,\"seq\":8}")
                .unreadable())
        .contains("Duplicate");
  }

  @Test
  void theEventIsTheLineWithoutItsTwoHashesWherEverTheyAre() {
    // Members between eventHash and hash ("f...", "g...") and before and after them.
    var line =
        "{\"a\":1,\"eventHash\":\""
            + EVENT_HASH
            + "\",\"f\":2,\"g\":3,\"hash\":\""
            + HASH
            + "\",\"seq\":4}";
    var parsed = new ExportLineParser().parse(line);
    assertThat(parsed.canonical()).isTrue();
    assertThat(parsed.contentHash()).isEqualTo(sha256("{\"a\":1,\"f\":2,\"g\":3,\"seq\":4}"));
    var first =
        "{\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\",\"seq\":4,\"z\":0}";
    assertThat(new ExportLineParser().parse(first).contentHash())
        .isEqualTo(sha256("{\"seq\":4,\"z\":0}"));
  }

  @Test
  void recognisesStubsAndRefusesAmbiguousLines() {
    var parser = new ExportLineParser();
    var stub = parser.parse(stubText());
    assertThat(stub.stub()).isTrue();
    assertThat(stub.canonical()).isTrue();
    assertThat(stub.seq()).isEqualTo(7);

    assertThat(parser.parse(stubText() + " {}").unreadable()).isNotNull();
    assertThat(parser.parse(stubText() + "{}").unreadable()).isNotNull();
    assertThat(parser.parse("[1]").unreadable()).contains("not a JSON object");
    assertThat(parser.parse("").unreadable()).isNotNull();
    assertThat(parser.parse("{\"seq\":1}").unreadable()).contains("eventHash");
    assertThat(parser.parse(stubText().replace(EVENT_HASH, EVENT_HASH.toUpperCase())).unreadable())
        .contains("eventHash");
    assertThat(
            parser
                .parse(
                    "{\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\",\"seq\":1.5}")
                .unreadable())
        .contains("seq");
  }

  @Test
  void readsLinesAcrossChunksWithoutCopyingThemOut() throws Exception {
    var text = new StringBuilder();
    var expected = new ArrayList<Long>();
    for (int i = 1; i <= 3_000; i++) {
      var pad = "é€😀".repeat(i % 50);
      text.append(line("\"pad\":\"" + pad + "\",", "\"seq\":" + i)).append('\n');
      expected.add((long) i);
    }
    text.append(stubText()); // a last line without a line feed
    expected.add(7L);
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    // Chunks smaller than some lines, so that lines cross chunk ends and buffers grow.
    for (int chunk : new int[] {64, 1000, 4096, 1 << 20}) {
      var seen = new ArrayList<Long>();
      var fileHash = AuditChain.newSha256();
      long count;
      try (var hashing = new ParallelLineHashing(chunk)) {
        count =
            hashing.run(
                new ByteArrayInputStream(bytes),
                fileHash,
                lines -> lines.forEach(l -> seen.add(l.seq())));
      }
      assertThat(count).isEqualTo(expected.size());
      assertThat(seen).isEqualTo(expected);
      assertThat(fileHash.digest()).isEqualTo(AuditChain.newSha256().digest(bytes));
    }
  }

  @Test
  void countsEmptyLinesAsRecordsThatCannotBeRead() throws Exception {
    byte[] bytes = (stubText() + "\n\n" + stubText() + "\n").getBytes(StandardCharsets.UTF_8);
    var seen = new ArrayList<ChainLine>();
    try (var hashing = new ParallelLineHashing(16)) {
      assertThat(hashing.run(new ByteArrayInputStream(bytes), AuditChain.newSha256(), seen::addAll))
          .isEqualTo(3);
    }
    assertThat(seen.get(1).unreadable()).isNotNull();
  }

  @Test
  void escapesLongRunsOfControlCharacters() {
    var s = "\u0001".repeat(10_000);
    var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(s);
    assertThat(CanonicalJson.text(node)).isEqualTo("\"" + "\\u0001".repeat(10_000) + "\"");
  }

  /**
   * A full record: {@code before} members (named before "eventHash"), the two hashes, then {@code
   * after}.
   */
  private static String line(String before, String after) {
    return "{" + before + tail(after) + "}";
  }

  private static String tail(String after) {
    return "\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\"," + after;
  }

  private static void assertFast(String members) {
    var text = line("\"d\":{" + members + "},", "\"seq\":1");
    var parsed = new ExportLineParser().parse(text);
    assertThat(parsed.unreadable()).as(text).isNull();
    assertThat(parsed.canonical()).as(text).isTrue();
    assertThat(parsed.contentHash()).as(text).isEqualTo(viaTree(text));
  }

  private static void assertSlow(String members) {
    var text = line("\"d\":{" + members + "},", "\"seq\":1");
    var parsed = new ExportLineParser().parse(text);
    assertThat(parsed.unreadable()).as(text).isNull();
    assertThat(parsed.canonical()).as(text).isFalse();
    assertThat(parsed.contentHash()).as(text).isEqualTo(viaTree(text));
  }

  private static void assertUnreadable(String members) {
    var text = line("\"d\":{" + members + "},", "\"seq\":1");
    assertThat(new ExportLineParser().parse(text).unreadable()).as(text).isNotNull();
  }

  /** What the content hashes to by the tree and CanonicalJson alone. */
  private static byte[] viaTree(String line) {
    var node = ExportFixture.tree(line);
    node.remove("eventHash");
    node.remove("hash");
    return AuditChain.newSha256().digest(CanonicalJson.bytes(node));
  }

  private static byte[] sha256(String text) {
    return AuditChain.newSha256().digest(bytes(text));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static int indexOf(byte[] haystack, String needle) {
    return new String(haystack, StandardCharsets.ISO_8859_1).indexOf(needle);
  }

  private static byte[] insert(byte[] into, int at, int[] bytes) {
    var out = new byte[into.length + bytes.length];
    System.arraycopy(into, 0, out, 0, at);
    for (int i = 0; i < bytes.length; i++) {
      out[at + i] = (byte) bytes[i];
    }
    System.arraycopy(into, at, out, at + bytes.length, into.length - at);
    return out;
  }

  private static String stubText() {
    return "{\"eventHash\":\"" + EVENT_HASH + "\",\"hash\":\"" + HASH + "\",\"seq\":7}";
  }
}
