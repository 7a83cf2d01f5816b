package io.trainyard.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Turns one line of {@code events.jsonl} into a {@link ChainLine}: the claimed hashes, and for a
 * full event the SHA-256 of its RFC 8785 form without them. The hash covers exactly what the line
 * holds, so an added member is an edit like any other. Duplicate member names and trailing text are
 * refused: with them, two readers could see two different events in one line.
 *
 * <p>Exports are written canonical, so the common case is checked and hashed byte by byte by {@link
 * CanonicalLineScanner}, with no tree and no re-serialisation. Any other line (members out of
 * order, whitespace, other escapes or spellings of numbers, a duplicate name, anything the scanner
 * does not accept) goes through the tree and {@link CanonicalJson}, which gives the same bytes for
 * any spelling of the same content, and is marked {@linkplain ChainLine#canonical() not canonical}.
 * Thread-safe, so that lines can be hashed in parallel.
 */
final class ExportLineParser {
  static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectReader READER = STRICT.reader();

  private static final ThreadLocal<CanonicalLineScanner> SCANNER =
      ThreadLocal.withInitial(CanonicalLineScanner::new);
  private static final ThreadLocal<CanonicalWriter> BUFFER =
      ThreadLocal.withInitial(() -> new CanonicalWriter(2048));
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(AuditChain::newSha256);

  ChainLine parse(String line) {
    return parse(line.getBytes(StandardCharsets.UTF_8));
  }

  /** A line as UTF-8 bytes, without its line feed. */
  ChainLine parse(byte[] line) {
    return parse(line, 0, line.length);
  }

  /** The line in {@code bytes[from, to)}, without its line feed. */
  ChainLine parse(byte[] bytes, int from, int to) {
    var fast = SCANNER.get().scan(bytes, from, to, SHA256.get());
    return fast != null ? fast : slowly(bytes, from, to);
  }

  /**
   * Parses the lines of {@code bytes[from, to)} (whole lines, each but maybe the last ending in a
   * line feed) into {@code out}. A canonical line is scanned once, its end found on the way.
   */
  void parseLines(byte[] bytes, int from, int to, java.util.List<ChainLine> out) {
    var scanner = SCANNER.get();
    var sha256 = SHA256.get();
    int start = from;
    while (start < to) {
      int lineEnd = scanner.scanToLineEnd(bytes, start, to, sha256);
      if (lineEnd >= 0) {
        out.add(scanner.lastRecord());
      } else {
        lineEnd = start;
        while (lineEnd < to && bytes[lineEnd] != '\n') {
          lineEnd++;
        }
        out.add(slowly(bytes, start, lineEnd));
      }
      start = lineEnd + 1;
    }
  }

  private static ChainLine slowly(byte[] bytes, int from, int to) {
    try {
      return viaTree(Arrays.copyOfRange(bytes, from, to)).notCanonical();
    } catch (JsonProcessingException e) {
      return ChainLine.unreadable("not JSON (" + e.getOriginalMessage() + ")");
    } catch (IOException | IllegalArgumentException e) {
      return ChainLine.unreadable(e.getMessage());
    }
  }

  private static ChainLine viaTree(byte[] line) throws IOException {
    if (!(READER.readTree(line) instanceof ObjectNode node)) {
      return ChainLine.unreadable("not a JSON object");
    }
    long seq = JsonFields.integer(node, "seq");
    byte[] eventHash = Hex.decode(JsonFields.hash(node, "eventHash"));
    byte[] hash = Hex.decode(JsonFields.hash(node, "hash"));
    if (node.size() == 3) {
      return ChainLine.stub(seq, eventHash, hash);
    }
    node.remove("eventHash");
    node.remove("hash");
    var out = BUFFER.get();
    out.reset();
    CanonicalJson.write(node, out);
    return ChainLine.full(seq, eventHash, hash, out.digest(SHA256.get()));
  }
}
