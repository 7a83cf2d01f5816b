package io.trainyard.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The verifier's fast path: one pass over the UTF-8 bytes of an {@code events.jsonl} line that
 * decides whether the line is already exactly in RFC 8785 canonical form and, if so, hashes the
 * event's bytes as they are, without building a tree or writing the event out again.
 *
 * <p>A line is accepted only when {@link CanonicalJson} would turn what the line means back into
 * exactly the same bytes: no whitespace; member names in strictly increasing order of their UTF-16
 * code units (so no duplicates); strings holding only the escapes {@code JSON.stringify} writes
 * ({@code \"}, {@code \\}, {@code \b \f \n \r \t}, <code>&#92;u00xx</code> with lower-case hex for
 * the other control characters) and otherwise well-formed UTF-8; numbers spelt as ECMAScript prints
 * their double; and a top-level object with {@code seq} (a non-negative integer), {@code eventHash}
 * and {@code hash} (64 lower-case hex digits each). Since such a line is the canonical form of
 * itself, the event's canonical bytes are the line with the {@code eventHash} and {@code hash}
 * members cut out, and their SHA-256 is the event hash the slow path would compute. Anything else
 * (an edited line re-serialised by hand, whitespace, an unusual escape, a deep nesting) is answered
 * null and goes through the full parse and canonicalisation; this class never decides that a line
 * is bad.
 *
 * <p>Not thread-safe (it reuses its buffers); use one per thread.
 */
final class CanonicalLineScanner {
  /** Deeper lines take the slow path, so that the recursion here stays shallow. */
  private static final int MAX_DEPTH = 64;

  /** Integers with at most this many digits are below 2^53, where ECMAScript prints every digit. */
  private static final int EXACT_INTEGER_DIGITS = 15;

  private static final byte[] EVENT_HASH = ascii("eventHash");
  private static final byte[] HASH = ascii("hash");
  private static final byte[] SEQ = ascii("seq");
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");
  private static final byte[] NULL = ascii("null");

  private byte[] b;
  private int pos;
  private int end;

  /** Where each top-level member starts (its name's quote) and ends (after its value). */
  private int[] memberStart = new int[32];

  private int[] memberEnd = new int[32];
  private int[] valueStart = new int[32];
  private int members;

  /**
   * The chain record of {@code line[from, to)} if the line is canonical and has what a record
   * needs, hashing the event with {@code sha256}; null otherwise.
   */
  ChainLine scan(byte[] line, int from, int to, MessageDigest sha256) {
    int stop = scanToLineEnd(line, from, to, sha256);
    return stop == to ? last : null;
  }

  private ChainLine last;

  /**
   * Scans the line that starts at {@code from} in {@code bytes[from, limit)}, without knowing yet
   * where it ends: a canonical line holds no raw line feed, so its end is where its top-level
   * object closes, and a line feed (or {@code limit}) must follow right there. Then {@link
   * #lastRecord()} is the line's record.
   *
   * @return where the line ends (its line feed, or {@code limit}) if it is canonical and has what a
   *     record needs; -1 if not, and the caller must find the line's end itself
   */
  int scanToLineEnd(byte[] bytes, int from, int limit, MessageDigest sha256) {
    b = bytes;
    pos = from;
    end = limit;
    members = 0;
    last = null;
    try {
      if (at(pos) != '{' || !object(0, true) || (pos != end && b[pos] != '\n')) {
        return -1;
      }
      last = record(sha256);
      return last == null ? -1 : pos;
    } finally {
      b = null;
    }
  }

  /** The record of the line {@link #scanToLineEnd} accepted last. */
  ChainLine lastRecord() {
    return last;
  }

  private ChainLine record(MessageDigest sha256) {
    int eventHash = -1;
    int hash = -1;
    int seq = -1;
    for (int m = 0; m < members; m++) {
      if (nameIs(m, EVENT_HASH)) {
        eventHash = m;
      } else if (nameIs(m, HASH)) {
        hash = m;
      } else if (nameIs(m, SEQ)) {
        seq = m;
      }
    }
    if (eventHash < 0 || hash < 0 || seq < 0) {
      return null;
    }
    byte[] eventHashBytes = hexValue(eventHash);
    byte[] hashBytes = hexValue(hash);
    long seqValue = seqValue(seq);
    if (eventHashBytes == null || hashBytes == null || seqValue < 0) {
      return null;
    }
    if (members == 3) {
      return ChainLine.stub(seqValue, eventHashBytes, hashBytes);
    }
    // The event is the line without two of its members: the runs of members between them, copied
    // together so that the digest sees one array (one call keeps this method small to compile).
    int length = 0;
    event = ensure(event, pos - memberStart[0] + 2); // at most the line
    event[length++] = '{';
    int m = 0;
    while (m < members) {
      if (m == eventHash || m == hash) {
        m++;
        continue;
      }
      int runStart = m;
      while (m + 1 < members && m + 1 != eventHash && m + 1 != hash) {
        m++;
      }
      if (length > 1) {
        event[length++] = ',';
      }
      int runLength = memberEnd[m] - memberStart[runStart];
      System.arraycopy(b, memberStart[runStart], event, length, runLength);
      length += runLength;
      m++;
    }
    event[length++] = '}';
    return ChainLine.full(seqValue, eventHashBytes, hashBytes, digest(sha256, event, length));
  }

  private byte[] event = new byte[1024];

  private static byte[] ensure(byte[] buffer, int size) {
    return buffer.length >= size ? buffer : new byte[Math.max(size, buffer.length * 2)];
  }

  private static byte[] digest(MessageDigest sha256, byte[] bytes, int length) {
    sha256.update(bytes, 0, length);
    return sha256.digest();
  }

  private boolean nameIs(int member, byte[] name) {
    int start = memberStart[member] + 1;
    int length = valueStart[member] - 2 - start; // the closing quote and the colon
    if (length != name.length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (b[start + i] != name[i]) {
        return false;
      }
    }
    return true;
  }

  /** The 32 bytes a member's {@code "<64 lower-case hex>"} value holds, else null. */
  private byte[] hexValue(int member) {
    int start = valueStart[member];
    if (memberEnd[member] - start != 66 || b[start] != '"') {
      return null;
    }
    var out = new byte[32];
    for (int i = 0; i < 32; i++) {
      int high = CanonicalTokens.hexDigit(b[start + 1 + 2 * i]);
      int low = CanonicalTokens.hexDigit(b[start + 2 + 2 * i]);
      if ((high | low) < 0) {
        return null;
      }
      out[i] = (byte) ((high << 4) | low);
    }
    return out;
  }

  /** A member's value as a non-negative integer of at most 18 digits, else -1. */
  private long seqValue(int member) {
    int start = valueStart[member];
    int length = memberEnd[member] - start;
    if (length < 1 || length > 18) {
      return -1;
    }
    long value = 0;
    for (int i = start; i < start + length; i++) {
      int digit = b[i] - '0';
      if (digit < 0 || digit > 9) {
        return -1;
      }
      value = value * 10 + digit;
    }
    return value;
  }

  private int at(int i) {
    return i < end ? b[i] : -1;
  }

  private boolean value(int depth) {
    return switch (at(pos)) {
      case '{' -> object(depth + 1, false);
      case '[' -> array(depth + 1);
      case '"' -> string() >= 0;
      case 't' -> literal(TRUE);
      case 'f' -> literal(FALSE);
      case 'n' -> literal(NULL);
      default -> number();
    };
  }

  private boolean object(int depth, boolean top) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    pos++; // {
    if (at(pos) == '}') {
      pos++;
      return true;
    }
    int previousStart = -1;
    int previousEnd = -1;
    boolean previousPlain = false;
    while (true) {
      int nameStart = pos;
      if (at(pos) != '"') {
        return false;
      }
      int kind = string();
      if (kind < 0) {
        return false;
      }
      int nameEnd = pos;
      boolean plain = kind == PLAIN;
      if (previousStart >= 0
          && CanonicalTokens.compareNames(
                  b, previousStart, previousEnd, previousPlain, nameStart, nameEnd, plain)
              >= 0) {
        return false; // out of order, or a duplicate
      }
      previousStart = nameStart;
      previousEnd = nameEnd;
      previousPlain = plain;
      if (at(pos) != ':') {
        return false;
      }
      pos++;
      int valueAt = pos;
      if (!value(depth)) {
        return false;
      }
      if (top) {
        addMember(nameStart, valueAt, pos);
      }
      int next = at(pos);
      pos++;
      if (next == '}') {
        return true;
      }
      if (next != ',') {
        return false;
      }
    }
  }

  private void addMember(int start, int valueAt, int stop) {
    if (members == memberStart.length) {
      memberStart = java.util.Arrays.copyOf(memberStart, members * 2);
      memberEnd = java.util.Arrays.copyOf(memberEnd, members * 2);
      valueStart = java.util.Arrays.copyOf(valueStart, members * 2);
    }
    memberStart[members] = start;
    valueStart[members] = valueAt;
    memberEnd[members] = stop;
    members++;
  }

  private boolean array(int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    pos++; // [
    if (at(pos) == ']') {
      pos++;
      return true;
    }
    while (true) {
      if (!value(depth)) {
        return false;
      }
      int next = at(pos);
      pos++;
      if (next == ']') {
        return true;
      }
      if (next != ',') {
        return false;
      }
    }
  }

  private static final int PLAIN = 0;
  private static final int OTHER = 1;

  /**
   * Checks a string at {@code pos} (its opening quote) and moves past it.
   *
   * @return {@link #PLAIN} for printable ASCII without escapes, whose bytes compare as its UTF-16
   *     code units do; {@link #OTHER} for any other canonical string; -1 if not canonical
   */
  private int string() {
    int p = pos + 1;
    int kind = PLAIN;
    final byte[] bytes = b;
    final int stop = end;
    while (true) {
      // Eight bytes at a time up to the first that needs a look: most of a line is plain text.
      while (p + 8 <= stop) {
        long special = CanonicalTokens.specialBytes(bytes, p);
        if (special != 0) {
          p += Long.numberOfTrailingZeros(special) >>> 3;
          break;
        }
        p += 8;
      }
      if (p >= stop) {
        return -1; // the line ends inside the string
      }
      int c = bytes[p];
      if (c == '"') {
        pos = p + 1;
        return kind;
      }
      if (c >= 0x20 && c != '\\') {
        p++; // printable ASCII (0x7f included: JSON.stringify leaves it as is)
        continue;
      }
      kind = OTHER;
      int length;
      if (c == '\\') {
        length = CanonicalTokens.escapeLength(bytes, p, stop);
      } else if (c >= 0) {
        return -1; // a raw control character
      } else {
        length = CanonicalTokens.utf8Length(bytes, p, stop);
      }
      if (length < 0) {
        return -1;
      }
      p += length;
    }
  }

  private boolean literal(byte[] word) {
    if (pos + word.length > end) {
      return false;
    }
    for (int i = 0; i < word.length; i++) {
      if (b[pos + i] != word[i]) {
        return false;
      }
    }
    pos += word.length;
    return true;
  }

  /** A JSON number at {@code pos} spelt exactly as ECMAScript prints its double. */
  private boolean number() {
    int start = pos;
    if (at(pos) == '-') {
      pos++;
    }
    int intStart = pos;
    int c = at(pos);
    if (c == '0') {
      pos++;
    } else if (c >= '1' && c <= '9') {
      while (isDigit(at(pos))) {
        pos++;
      }
    } else {
      return false;
    }
    int intDigits = pos - intStart;
    boolean fraction = false;
    if (at(pos) == '.') {
      pos++;
      if (!isDigit(at(pos))) {
        return false;
      }
      while (isDigit(at(pos))) {
        pos++;
      }
      fraction = true;
    }
    boolean exponent = false;
    c = at(pos);
    if (c == 'e' || c == 'E') {
      pos++;
      c = at(pos);
      if (c == '+' || c == '-') {
        pos++;
      }
      if (!isDigit(at(pos))) {
        return false;
      }
      while (isDigit(at(pos))) {
        pos++;
      }
      exponent = true;
    }
    if (!fraction && !exponent && intDigits <= EXACT_INTEGER_DIGITS) {
      // An integer below 2^53 prints as its digits; only -0 prints otherwise (as 0).
      return !(intDigits == 1 && b[intStart] == '0' && start != intStart);
    }
    return EcmaScriptNumber.isCanonical(
        new String(b, start, pos - start, StandardCharsets.US_ASCII));
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
