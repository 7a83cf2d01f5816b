package io.trainyard.audit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The token-level checks of {@link CanonicalLineScanner}: whether an escape or a UTF-8 sequence is
 * spelt exactly as RFC 8785 (and so ECMAScript's {@code JSON.stringify}) writes it, and how
 * canonical member names compare. (Numbers stay in the scanner: inlined into its callers, their
 * check made the JIT spend a second more compiling them, which a fresh verification pays.)
 * Stateless: positions in, positions or lengths out, -1 for "not canonical". Thread-safe.
 */
final class CanonicalTokens {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  /** The value of each lower-case hex digit, -1 for every other byte. */
  private static final int[] HEX_VALUE = new int[256];

  static {
    Arrays.fill(HEX_VALUE, -1);
    for (int c = '0'; c <= '9'; c++) {
      HEX_VALUE[c] = c - '0';
    }
    for (int c = 'a'; c <= 'f'; c++) {
      HEX_VALUE[c] = c - 'a' + 10;
    }
  }

  private CanonicalTokens() {}

  static int hexDigit(byte c) {
    return HEX_VALUE[c & 0xff];
  }

  /**
   * For the eight bytes at {@code bytes[p]}: the high bit of each byte (the first byte lowest) that
   * is not printable ASCII other than {@code "} and {@code \\}, or 0 if all eight are. A
   * subtraction's borrow can also mark bytes above a marked one, never below, so the lowest mark is
   * exact.
   */
  static long specialBytes(byte[] bytes, int p) {
    long word = (long) LONGS.get(bytes, p);
    long nonAscii = word;
    long control = (word - 0x20 * ONES) & ~word;
    long quote = word ^ ('"' * ONES);
    long backslash = word ^ ('\\' * ONES);
    long zeroInQuote = (quote - ONES) & ~quote;
    long zeroInBackslash = (backslash - ONES) & ~backslash;
    return (nonAscii | control | zeroInQuote | zeroInBackslash) & HIGH_BITS;
  }

  /** The length of the escape at {@code b[p]} (a backslash) if {@code JSON.stringify} writes it. */
  static int escapeLength(byte[] b, int p, int end) {
    int e = p + 1 < end ? b[p + 1] : -1;
    switch (e) {
      case '"', '\\', 'b', 'f', 'n', 'r', 't' -> {
        return 2;
      }
      case 'u' -> {
        // Only control characters without a short escape are written as a six-character u-escape.
        if (p + 6 > end || b[p + 2] != '0' || b[p + 3] != '0') {
          return -1;
        }
        int high = b[p + 4];
        int low = hexDigit(b[p + 5]);
        if ((high != '0' && high != '1') || low < 0) {
          return -1;
        }
        int c = (high - '0') << 4 | low;
        if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
          return -1;
        }
        return 6;
      }
      default -> {
        return -1; // \/ and anything else JSON.stringify never writes
      }
    }
  }

  /**
   * The length of the UTF-8 sequence of a non-ASCII character at {@code b[p]} if it is well-formed:
   * no overlong forms, no surrogates (which I-JSON refuses), nothing above U+10FFFF.
   */
  static int utf8Length(byte[] b, int p, int end) {
    int lead = b[p] & 0xff;
    int length;
    int min2 = 0x80;
    int max2 = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead == 0xe0) {
        min2 = 0xa0;
      } else if (lead == 0xed) {
        max2 = 0x9f;
      }
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead == 0xf0) {
        min2 = 0x90;
      } else if (lead == 0xf4) {
        max2 = 0x8f;
      }
    } else {
      return -1;
    }
    if (p + length > end) {
      return -1;
    }
    int second = b[p + 1] & 0xff;
    if (second < min2 || second > max2) {
      return -1;
    }
    for (int i = 2; i < length; i++) {
      if ((b[p + i] & 0xc0) != 0x80) {
        return -1;
      }
    }
    return length;
  }

  /**
   * Compares two canonical names (their ranges include the quotes) by their UTF-16 code units, as
   * RFC 8785 sorts. Plain names (printable ASCII, no escape) compare as bytes; others are decoded
   * first (rare: a name with an escape or a non-ASCII character).
   */
  static int compareNames(
      byte[] b, int aStart, int aEnd, boolean aPlain, int bStart, int bEnd, boolean bPlain) {
    if (aPlain && bPlain) {
      // Names are short and differ early: a plain loop beats Arrays.compare's set-up here.
      int aLength = aEnd - aStart;
      int bLength = bEnd - bStart;
      int common = Math.min(aLength, bLength) - 1; // compare what is between the quotes
      for (int i = 1; i < common; i++) {
        int diff = b[aStart + i] - b[bStart + i];
        if (diff != 0) {
          return diff;
        }
      }
      return aLength - bLength;
    }
    return decode(b, aStart, aEnd).compareTo(decode(b, bStart, bEnd));
  }

  /** The text of a canonical string (quotes included in the range). */
  static String decode(byte[] b, int start, int stop) {
    var raw = new String(b, start + 1, stop - start - 2, StandardCharsets.UTF_8);
    if (raw.indexOf('\\') < 0) {
      return raw;
    }
    var out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = raw.charAt(++i);
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> out.append(e); // " or \
      }
    }
    return out.toString();
  }
}
