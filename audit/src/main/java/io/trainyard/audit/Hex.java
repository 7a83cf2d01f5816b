package io.trainyard.audit;

/**
 * Lower-case hexadecimal, the one text form of hashes, HMACs and signatures in audit records.
 * Decoding accepts lower case only, so that every value has exactly one spelling and a record
 * cannot be altered by changing the case of a hash without its bytes changing.
 */
public final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  public static String encode(byte[] bytes) {
    var out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
    }
    return new String(out);
  }

  /**
   * @throws IllegalArgumentException if {@code text} is not an even number of lower-case hex digits
   */
  public static byte[] decode(String text) {
    if (text.length() % 2 != 0) {
      throw new IllegalArgumentException("odd number of hex digits");
    }
    var out = new byte[text.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) ((digit(text.charAt(2 * i)) << 4) | digit(text.charAt(2 * i + 1)));
    }
    return out;
  }

  /** Whether {@code text} is {@code bytes} bytes of lower-case hex. */
  public static boolean isHex(String text, int bytes) {
    if (text == null || text.length() != bytes * 2) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** {@code text} decoded if it is {@code bytes} bytes of lower-case hex, else null. */
  public static byte[] decodeOrNull(String text, int bytes) {
    if (text == null || text.length() != bytes * 2) {
      return null;
    }
    var out = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      int high = digitOrMinus(text.charAt(2 * i));
      int low = digitOrMinus(text.charAt(2 * i + 1));
      if ((high | low) < 0) {
        return null;
      }
      out[i] = (byte) ((high << 4) | low);
    }
    return out;
  }

  private static int digitOrMinus(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  }

  private static int digit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    throw new IllegalArgumentException("not a lower-case hex digit: '" + c + "'");
  }
}
