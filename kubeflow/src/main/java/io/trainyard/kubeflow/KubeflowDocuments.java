package io.trainyard.kubeflow;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.InputLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a request body (YAML or JSON) into one document tree, the way the gateway should before
 * {@link KubeflowReader#read}. Stateless and thread-safe.
 *
 * <p>YAML anchors, aliases and merge keys ({@code <<: *base}) are resolved; comments are ignored.
 * Refused, with a message: several documents in one body (one job per request), duplicate keys in
 * one mapping (YAML forbids them and a last-wins parser would drop one silently), a mapping that
 * merges several anchors at once or writes keys before its {@code <<:} line (the parser applies
 * merged keys where the {@code <<:} line stands, so such keys could lose to the merged ones).
 *
 * <p>Every scalar is checked as a token, before anything converts it (see {@link InputLimits}): a
 * number longer than 40 characters, with a decimal exponent beyond ±30, or YAML's {@code .inf} and
 * {@code .nan}; a key or string holding NUL, another control character than tab, newline and
 * carriage return, or a lone UTF-16 surrogate. Each is refused with its field's path.
 */
public final class KubeflowDocuments {
  // Floats stay exact (500m cpus must not become 0.49999...) and are compared by value.
  private static final ObjectMapper REPLAYING =
      new ObjectMapper(new AnchorReplayingYamlFactory())
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final YAMLFactory PLAIN = new YAMLFactory();
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  /** Far above any real job document (a few thousand nodes), far below a memory problem. */
  static final int MAX_TOKENS = 200_000;

  private KubeflowDocuments() {}

  /**
   * The single document in {@code body}.
   *
   * @throws KubeflowConversionException when the body is empty, not YAML, or holds more than one
   *     document or an ambiguous mapping (see the class comment)
   */
  public static JsonNode parseSingle(byte[] body) {
    checkUtf8(body);
    var json = isJsonObject(body) ? json(body) : null;
    if (json != null) {
      checkJsonScalars(body);
      return json;
    }
    return mayUseAnchors(body) ? readInTwoPasses(body) : readOnce(body);
  }

  /**
   * Refuses a body that claims no other encoding (no UTF-16 or UTF-32 byte-order mark or zero bytes
   * up front) and is not well-formed UTF-8. The parsers are lenient: an overlong form such as
   * {@code C0 AF} would be read as {@code /}, and CESU-8's surrogate halves as the character they
   * make — the classic way past a check that looks at bytes.
   */
  static void checkUtf8(byte[] body) {
    if (body.length >= 2
        && (body[0] == 0 || body[1] == 0 || (body[0] & 0xFF) == 0xFE || (body[0] & 0xFF) == 0xFF)) {
      return; // UTF-16 or UTF-32: their readers check them
    }
    var decoder =
        java.nio.charset.StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    var in = java.nio.ByteBuffer.wrap(body);
    var out = java.nio.CharBuffer.allocate(Math.min(body.length, 8192));
    while (true) {
      var result = decoder.decode(in, out, true);
      if (result.isError()) {
        throw refused("", "is not valid UTF-8 (at byte " + in.position() + ")");
      }
      if (result.isUnderflow()) {
        return;
      }
      out.clear();
    }
  }

  /** The plain pass, then the replaying one: what a body that may hold anchors needs. */
  static JsonNode readInTwoPasses(byte[] body) {
    checkStructure(body);
    try {
      return replayBounded(body);
    } catch (JsonProcessingException e) {
      throw refused("", "is not valid YAML or JSON: " + readerWords(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the body may hold an anchor, an alias or a merge key: any {@code &}, {@code *} or
   * {@code <<} byte, wherever it stands (in a quoted string too). Only such a body needs the plain
   * pass that sees where aliases stand before the replaying one.
   */
  private static boolean mayUseAnchors(byte[] body) {
    for (int i = 0; i < body.length; i++) {
      var b = body[i];
      if (b == '&' || b == '*' || (b == '<' && i + 1 < body.length && body[i + 1] == '<')) {
        return true;
      }
    }
    return false;
  }

  /**
   * A body without anchors read in one YAML pass: its tokens are checked as scalars and buffered,
   * then the buffer is walked for the structure checks and read into the tree, the same checks and
   * the same tree as the two passes give, without scanning the YAML twice.
   */
  private static JsonNode readOnce(byte[] body) {
    try (var parser = PLAIN.createParser(body);
        var buffer = new TokenBuffer(parser)) {
      copyChecked(parser, buffer, "holds more than " + MAX_TOKENS + " YAML nodes");
      try (var tokens = buffer.asParser()) {
        checkOneDocument(tokens);
      }
      return REPLAYING.readTree(buffer.asParser());
    } catch (JsonProcessingException e) {
      throw notYaml(body, e);
    } catch (NumberFormatException e) {
      throw refused("", "holds a number that cannot be read: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads YAML with its aliases replayed, stopping once the replayed document passes {@link
   * #MAX_TOKENS}: nested aliases grow a small body exponentially (a "billion laughs"), so the size
   * of the body alone bounds nothing.
   */
  private static JsonNode replayBounded(byte[] body) throws IOException {
    try (var parser = REPLAYING.createParser(body);
        var buffer = new TokenBuffer(parser)) {
      // The scalars again here, where every token is read as the tree will see it (aliases
      // replayed).
      copyChecked(
          parser, buffer, "expands to more than " + MAX_TOKENS + " YAML nodes through its aliases");
      return REPLAYING.readTree(buffer.asParser());
    } catch (NumberFormatException e) {
      // A scalar the parser typed as a number but cannot convert; never a server error.
      throw refused("", "holds a number that cannot be read: " + e.getMessage());
    }
  }

  /** The dotted path of the value a parser stands on, as the readers name fields. */
  private static String path(JsonStreamContext context) {
    var parts = new ArrayDeque<String>();
    for (var c = context; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.push("[" + Math.max(c.getCurrentIndex(), 0) + "]");
      } else if (c.getCurrentName() != null) {
        // As NodeReader.at names fields: an empty key as "".
        parts.push("." + (c.getCurrentName().isEmpty() ? "\"\"" : c.getCurrentName()));
      }
    }
    var path = String.join("", parts);
    return path.startsWith(".") ? path.substring(1) : path;
  }

  // JSON may be indented with tabs, which YAML forbids: a body that opens with '{' is tried as
  // JSON first, and read as YAML (flow style) when it is not JSON.
  private static boolean isJsonObject(byte[] body) {
    for (var b : body) {
      if (!Character.isWhitespace(b)) {
        return b == '{';
      }
    }
    return false;
  }

  private static JsonNode json(byte[] body) {
    try (var parser = JSON.createParser(body)) {
      JsonNode tree = JSON.readTree(parser);
      if (parser.nextToken() != null) {
        throw refused("", "holds more than one JSON document; send one job per request");
      }
      return tree;
    } catch (JsonProcessingException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The scalar checks of {@link #walk} over a body already read as JSON. Reading the tree first
   * costs nothing extra: Jackson keeps a number's text until asked for its value, and its own
   * length limit (1000 characters) bounds that text.
   */
  private static void checkJsonScalars(byte[] body) {
    try (var parser = JSON.createParser(body)) {
      parser.nextToken();
      walk(parser, "", new Anchors());
    } catch (JsonProcessingException e) {
      throw refused("", "is not valid JSON: " + readerWords(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first pass: structure only, on the plain parser, which still shows where aliases stand. */
  private static void checkStructure(byte[] body) {
    try (var parser = PLAIN.createParser(body)) {
      checkOneDocument(parser);
    } catch (JsonProcessingException e) {
      throw notYaml(body, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Copies every token of {@code parser} into {@code buffer}, refusing first a scalar no field
   * could use (before anything converts it: a copied number is parsed) and a body of more than
   * {@link #MAX_TOKENS} tokens; the field path is spelled only for a token refused.
   */
  private static void copyChecked(JsonParser parser, TokenBuffer buffer, String tooMany)
      throws IOException {
    var tokens = 0;
    JsonToken token;
    while ((token = parser.nextToken()) != null) {
      if (++tokens > MAX_TOKENS) {
        throw refused("", tooMany);
      }
      var problem = scalarProblem(parser, token);
      if (problem != null) {
        throw refusedAt(path(parser.getParsingContext()), problem);
      }
      buffer.copyCurrentEvent(parser);
    }
  }

  /** The structure checks ({@link #walk}) of a body that must hold one document, from its start. */
  private static void checkOneDocument(JsonParser parser) throws IOException {
    if (parser.nextToken() == null) {
      throw refused("", "is empty: send one kubeflow.org/v1 job document");
    }
    walk(parser, "", new Anchors());
    var next = parser.nextToken();
    // A trailing "---" opens an empty document, which YAML reads as null: harmless.
    if (next == JsonToken.VALUE_NULL) {
      next = parser.nextToken();
    }
    if (next != null) {
      throw refused(
          "", "holds more than one YAML document (separated by ---); send one job per request");
    }
  }

  private static KubeflowConversionException notYaml(byte[] body, JsonProcessingException e) {
    return unrenderedTemplate(body)
        .orElseGet(
            () -> refused("", "is not valid YAML or JSON: " + readerWords(e.getOriginalMessage())));
  }

  /**
   * An unquoted Helm or Jinja placeholder ({@code image: {{ .Values.image }}}) is no YAML: the
   * parser's complaint about a flow mapping would not tell the user what is wrong, this does.
   */
  private static java.util.Optional<KubeflowConversionException> unrenderedTemplate(byte[] body) {
    var lines = new String(body, java.nio.charset.StandardCharsets.UTF_8).split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      var m = UNQUOTED_TEMPLATE.matcher(lines[i]);
      if (m.find()) {
        var key = m.group(1);
        return java.util.Optional.of(
            refused(
                key == null ? "(line " + (i + 1) + ")" : key + " (line " + (i + 1) + ")",
                "holds '"
                    + m.group(2).strip()
                    + "', which looks like an unrendered template (Helm, Go or Jinja); render it"
                    + " (helm template, ...) and send the result"));
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * A parser's message as a caller may read it: without the Java class names it quotes ({@code
   * java.io.CharConversionException: }, {@code StreamReadConstraints.getMaxNestingDepth()}), which
   * say nothing to a caller and something about the server.
   */
  static String readerWords(String message) {
    if (message == null) {
      return "it could not be read";
    }
    return message
        .replaceAll("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*(?:Exception|Error)): ?", "")
        .replaceAll(
            "\\s*\\(?(?:as )?(?:defined|set|configured) by `?StreamReadConstraints[^)`]*`?\\)?", "")
        .replaceAll("`?StreamReadConstraints\\.[A-Za-z]+\\(\\)`?", "the limit")
        .replaceAll("org\\.snakeyaml\\.engine\\.[A-Za-z0-9_.$]+", "YAML event");
  }

  private static final java.util.regex.Pattern UNQUOTED_TEMPLATE =
      java.util.regex.Pattern.compile(
          "^\\s*(?:-\\s+)?(?:([A-Za-z0-9_./-]+)\\s*:\\s*)?(\\{\\{.*?}}|\\{%.*?%})");

  /**
   * Anchors seen so far that contain an alias, and the anchors enclosing the current token.
   * Jackson's replaying parser replays an alias to such an anchor as an empty value, silently, so
   * nested aliases are refused here instead (one level of aliases is what job documents use).
   */
  private static final class Anchors {
    final Set<String> withAliases = new HashSet<>();
    final Deque<String> open = new ArrayDeque<>();
  }

  /** Checks the value at the current token and everything inside it. */
  private static void walk(JsonParser parser, String path, Anchors anchors) throws IOException {
    if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
      var name = parser.getText();
      if (anchors.withAliases.contains(name)) {
        throw refused(
            path,
            "uses *"
                + name
                + ", an anchor that itself uses aliases; nested aliases are not supported");
      }
      anchors.withAliases.addAll(anchors.open);
      return;
    }
    var token = parser.currentToken();
    var problem = scalarProblem(parser, token);
    if (problem != null) {
      throw refusedAt(path, problem);
    }
    var anchor = token.isStructStart() ? parser.getObjectId() : null;
    if (anchor != null) {
      anchors.open.push(anchor.toString());
    }
    if (token == JsonToken.START_OBJECT) {
      mapping(parser, path, anchors);
    } else if (token == JsonToken.START_ARRAY) {
      for (int i = 0; parser.nextToken() != JsonToken.END_ARRAY; i++) {
        walk(parser, path + "[" + i + "]", anchors);
      }
    }
    if (anchor != null) {
      anchors.open.pop();
    }
  }

  private static void mapping(JsonParser parser, String path, Anchors anchors) throws IOException {
    var keys = new HashSet<String>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      var key = parser.currentName();
      var at = NodeReader.at(path, key);
      var keyProblem = InputLimits.textProblem(key, false);
      if (keyProblem != null) {
        throw refused(path.isEmpty() ? "(document)" : path, "has a key that " + keyProblem);
      }
      if (key.equals("<<") && !keys.isEmpty()) {
        throw refused(
            at, "comes after other keys; write the <<: line first so the keys below it win");
      }
      if (!keys.add(key)) {
        throw refused(at, "appears twice in the same mapping");
      }
      if (parser.nextToken() == JsonToken.START_ARRAY && key.equals("<<")) {
        throw refused(at, "merges several anchors; merge one per mapping (<<: *name)");
      }
      walk(parser, at, anchors);
    }
  }

  /** Why no field could use this number or string token (see the class comment), or null. */
  private static String scalarProblem(JsonParser parser, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      return InputLimits.numberProblem(parser.getText());
    } else if (token == JsonToken.VALUE_STRING) {
      return InputLimits.textProblem(parser.getText(), true);
    }
    return null;
  }

  private static KubeflowConversionException refusedAt(String path, String problem) {
    return refused(path.isEmpty() ? "(document)" : path, problem);
  }

  private static KubeflowConversionException refused(String field, String message) {
    return new KubeflowConversionException(
        List.of(new FieldError(field, (field.isEmpty() ? "the body " : "") + message)));
  }
}
