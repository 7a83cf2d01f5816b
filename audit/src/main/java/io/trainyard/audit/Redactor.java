package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Replaces secret values in an event's details with {@link SecretHmac} evidence before the event is
 * hashed and stored.
 *
 * <p>The rule, applied at every depth of objects and arrays:
 *
 * <ol>
 *   <li>A member whose name looks secret has every string, number and boolean in its value replaced
 *       by {@code hmac:<hex>} (objects and arrays under it keep their shape; nulls stay null). A
 *       name looks secret when, lower-cased with everything but letters and digits removed, it
 *       contains one of {@link #SECRET_WORDS}: so {@code WANDB_API_KEY}, {@code x-auth-token},
 *       {@code clientSecret}, {@code Authorization} and {@code db.password} do ({@code tokenizer}
 *       does not).
 *   <li>Any string anywhere that looks like a credential by itself is replaced too: an HTTP {@code
 *       Bearer}/{@code Basic} value, or a JWT ({@code eyJ...}.{@code eyJ...}.{@code ...}), because
 *       a token pasted into an innocent-looking field must not reach the log either.
 *   <li>Values that already are evidence are left as they are, so redacting twice is harmless.
 * </ol>
 *
 * <p>Over-redaction is the safe failure: evidence still lets an auditor holding the key check a
 * value. Members named in {@code exemptNames} (compared exactly) are copied untouched with their
 * whole subtree; use it only for fields the gateway has validated to hold references, not values.
 * Thread-safe.
 */
public final class Redactor {
  /** Substrings of a normalised member name that mark its value as secret. */
  public static final List<String> SECRET_WORDS =
      List.of(
          "token",
          "password",
          "passwd",
          "passphrase",
          "secret",
          "apikey",
          "authorization",
          "credential",
          "privatekey",
          "accesskey",
          "cookie");

  private static final Pattern NOT_ALNUM = Pattern.compile("[^a-z0-9]");
  private static final Pattern CREDENTIAL_VALUE =
      Pattern.compile(
          "(?i)\\s*(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}\\s*"
              + "|\\s*eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]*\\s*");

  private final SecretHmac hmac;
  private final Set<String> exemptNames;

  public Redactor(SecretHmac hmac) {
    this(hmac, Set.of());
  }

  public Redactor(SecretHmac hmac, Set<String> exemptNames) {
    this.hmac = Objects.requireNonNull(hmac, "hmac");
    this.exemptNames = Set.copyOf(exemptNames);
  }

  /** Whether a member called {@code name} has its value replaced. */
  public static boolean looksSecret(String name) {
    var normal = NOT_ALNUM.matcher(name.toLowerCase(Locale.ROOT)).replaceAll("");
    // A tokenizer's name is model configuration, not a credential.
    normal = normal.replace("tokenizer", "");
    for (var word : SECRET_WORDS) {
      if (normal.contains(word)) {
        return true;
      }
    }
    return false;
  }

  /** A redacted copy of {@code node}; the argument is not changed. */
  public JsonNode redact(JsonNode node) {
    return node == null ? null : walk(node, false);
  }

  /** A redacted copy as an object, for {@link AuditEvent.Builder#details(JsonNode)}. */
  public ObjectNode redactObject(JsonNode node) {
    var result = redact(node);
    if (result != null && !result.isObject()) {
      throw new IllegalArgumentException("details must be a JSON object");
    }
    return (ObjectNode) result;
  }

  private JsonNode walk(JsonNode node, boolean secret) {
    if (node.isObject()) {
      var copy = JsonNodeFactory.instance.objectNode();
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        var name = names.next();
        var value = node.get(name);
        copy.set(
            name,
            exemptNames.contains(name)
                ? value.deepCopy()
                : walk(value, secret || looksSecret(name)));
      }
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
      node.forEach(element -> copy.add(walk(element, secret)));
      return copy;
    }
    if (node.isNull() || node.isMissingNode()) {
      return node;
    }
    // A number is evidenced in its canonical spelling, so 1.50 and 1.5 give the same HMAC.
    var text = node.isNumber() ? EcmaScriptNumber.format(node.doubleValue()) : node.asText();
    if (SecretHmac.isEvidence(text)) {
      return node;
    }
    if (secret || (node.isTextual() && CREDENTIAL_VALUE.matcher(text).matches())) {
      return JsonNodeFactory.instance.textNode(hmac.evidence(text));
    }
    return node;
  }
}
