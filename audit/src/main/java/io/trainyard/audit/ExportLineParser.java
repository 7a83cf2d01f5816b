package io.trainyard.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Turns one line of {@code events.jsonl} into a {@link ChainLine}: the claimed hashes, and for a
 * full event the SHA-256 of its RFC 8785 form without them. The hash covers exactly what the line
 * holds, so an added member is an edit like any other. Duplicate member names and trailing text are
 * refused: with them, two readers could see two different events in one line.
 *
 * <p>Lines are written canonical, with members in order, so the common case streams: tokens are
 * re-encoded canonically as they are read, without building a tree, which is most of the cost of
 * verifying. An object whose members are not in strictly increasing order (an edited line, say)
 * sends the line through the tree and {@link CanonicalJson}, which gives the same bytes for any
 * order. Thread-safe, so that lines can be hashed in parallel.
 */
final class ExportLineParser {
  static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectReader READER = STRICT.reader();

  /**
   * For the streaming path: without duplicate detection, which that path does not need, since it
   * refuses any member name not greater than the one before.
   */
  private static final JsonFactory PLAIN = new JsonFactory();

  private static final ThreadLocal<CanonicalWriter> BUFFER =
      ThreadLocal.withInitial(() -> new CanonicalWriter(2048));
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(AuditChain::newSha256);

  ChainLine parse(String line) {
    return parse(line.getBytes(StandardCharsets.UTF_8));
  }

  /** A line as UTF-8 bytes, without its line feed. */
  ChainLine parse(byte[] line) {
    try {
      var streamed = streamed(line);
      return streamed != null ? streamed : viaTree(line);
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

  /** What the top level of a streamed line held besides its canonical text. */
  private static final class TopLevel {
    long seq = -1;
    String eventHash;
    String hash;
    int members;
  }

  /** The line's chain record by streaming, or null if a member is out of order. */
  static ChainLine streamed(String line) throws IOException {
    return streamed(line.getBytes(StandardCharsets.UTF_8));
  }

  private static ChainLine streamed(byte[] line) throws IOException {
    var out = BUFFER.get();
    out.reset();
    var top = new TopLevel();
    try (JsonParser parser = PLAIN.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null; // let the tree path say what it is
      }
      if (!writeObject(parser, out, top) || parser.nextToken() != null) {
        return null;
      }
    }
    byte[] eventHash = Hex.decodeOrNull(top.eventHash, 32);
    byte[] hash = Hex.decodeOrNull(top.hash, 32);
    if (top.seq < 0 || eventHash == null || hash == null) {
      return null; // the tree path names what is missing
    }
    if (top.members == 3) {
      return ChainLine.stub(top.seq, eventHash, hash);
    }
    return ChainLine.full(top.seq, eventHash, hash, out.digest(SHA256.get()));
  }

  /**
   * Writes the object the parser is at canonically; at the top level ({@code top} not null) it
   * leaves out {@code eventHash} and {@code hash} and notes them and {@code seq}.
   */
  private static boolean writeObject(JsonParser parser, CanonicalWriter out, TopLevel top)
      throws IOException {
    out.ascii('{');
    String previous = null;
    boolean first = true;
    for (var token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      var name = parser.currentName();
      if (previous != null && name.compareTo(previous) <= 0) {
        return false;
      }
      previous = name;
      var value = parser.nextToken();
      if (top != null) {
        top.members++;
        if ((name.equals("eventHash") || name.equals("hash")) && value == JsonToken.VALUE_STRING) {
          if (name.equals("hash")) {
            top.hash = parser.getText();
          } else {
            top.eventHash = parser.getText();
          }
          continue;
        }
        if (name.equals("seq")
            && value == JsonToken.VALUE_NUMBER_INT
            && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
          top.seq = parser.getLongValue();
        }
      }
      if (!first) {
        out.ascii(',');
      }
      first = false;
      out.string(name).ascii(':');
      if (!writeValue(parser, value, out)) {
        return false;
      }
    }
    out.ascii('}');
    return true;
  }

  private static boolean writeValue(JsonParser parser, JsonToken token, CanonicalWriter out)
      throws IOException {
    switch (token) {
      case START_OBJECT:
        return writeObject(parser, out, null);
      case START_ARRAY:
        out.ascii('[');
        boolean first = true;
        for (var t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
          if (!first) {
            out.ascii(',');
          }
          first = false;
          if (!writeValue(parser, t, out)) {
            return false;
          }
        }
        out.ascii(']');
        return true;
      case VALUE_STRING:
        out.string(parser.getText());
        return true;
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        // As the tree path: every number is the double Jackson reads it as.
        out.number(parser.getDoubleValue());
        return true;
      case VALUE_TRUE:
        out.ascii("true");
        return true;
      case VALUE_FALSE:
        out.ascii("false");
        return true;
      case VALUE_NULL:
        out.ascii("null");
        return true;
      default:
        return false;
    }
  }
}
