package io.trainyard.audit;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The byte side of RFC 8785: a growable UTF-8 buffer that writes strings with exactly the escapes
 * ECMAScript's {@code JSON.stringify} uses and numbers as ECMAScript prints them. Writing bytes
 * directly, rather than text that is encoded afterwards, is what keeps verifying a large export
 * cheap. Not thread-safe; reusable after {@link #reset()}.
 */
final class CanonicalWriter {
  private static final byte[] HEX =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private byte[] buffer;
  private int length;

  CanonicalWriter(int capacity) {
    buffer = new byte[capacity];
  }

  void reset() {
    length = 0;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buffer, length);
  }

  /** SHA-256 (or any digest) of what was written, without copying it. */
  byte[] digest(MessageDigest digest) {
    digest.reset();
    digest.update(buffer, 0, length);
    return digest.digest();
  }

  /** An ASCII character: punctuation, or a literal such as {@code true}. */
  CanonicalWriter ascii(char c) {
    ensure(1);
    buffer[length++] = (byte) c;
    return this;
  }

  CanonicalWriter ascii(String s) {
    ensure(s.length());
    for (int i = 0; i < s.length(); i++) {
      buffer[length++] = (byte) s.charAt(i);
    }
    return this;
  }

  CanonicalWriter number(double value) {
    return ascii(EcmaScriptNumber.format(value));
  }

  /**
   * @throws IllegalArgumentException for an unpaired surrogate, which I-JSON forbids
   */
  CanonicalWriter string(String s) {
    ensure(s.length() * 6 + 2); // at most 6 bytes a char, for an escaped control character
    buffer[length++] = '"';
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
        buffer[length++] = (byte) c;
      } else if (c < 0x80) {
        escape(c);
      } else if (c < 0x800) {
        buffer[length++] = (byte) (0xc0 | (c >> 6));
        buffer[length++] = (byte) (0x80 | (c & 0x3f));
      } else if (!Character.isSurrogate(c)) {
        buffer[length++] = (byte) (0xe0 | (c >> 12));
        buffer[length++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        buffer[length++] = (byte) (0x80 | (c & 0x3f));
      } else {
        if (!Character.isHighSurrogate(c)
            || i + 1 >= s.length()
            || !Character.isLowSurrogate(s.charAt(i + 1))) {
          throw new IllegalArgumentException("unpaired surrogate at index " + i);
        }
        int cp = Character.toCodePoint(c, s.charAt(++i));
        buffer[length++] = (byte) (0xf0 | (cp >> 18));
        buffer[length++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
        buffer[length++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
        buffer[length++] = (byte) (0x80 | (cp & 0x3f));
      }
    }
    buffer[length++] = '"';
    return this;
  }

  private void escape(char c) {
    buffer[length++] = '\\';
    switch (c) {
      case '"' -> buffer[length++] = '"';
      case '\\' -> buffer[length++] = '\\';
      case '\b' -> buffer[length++] = 'b';
      case '\f' -> buffer[length++] = 'f';
      case '\n' -> buffer[length++] = 'n';
      case '\r' -> buffer[length++] = 'r';
      case '\t' -> buffer[length++] = 't';
      default -> {
        buffer[length++] = 'u';
        buffer[length++] = '0';
        buffer[length++] = '0';
        buffer[length++] = HEX[c >> 4];
        buffer[length++] = HEX[c & 0xf];
      }
    }
  }

  private void ensure(int more) {
    if (length + more + 8 > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more + 8));
    }
  }
}
