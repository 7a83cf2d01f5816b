package io.trainyard.gateway.db;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Job ids: lower-case ULIDs (26 characters of Crockford base32: 48 bits of milliseconds, then 80
 * random bits). Lower case so that {@code ty-<id>-a<attempt>} is a valid DNS-1035 label for every
 * backend; time first so that ids sort by creation (to the millisecond) and index well.
 *
 * <p>Thread-safe. Ids made within the same millisecond are ordered randomly, which is all the
 * design needs (nothing relies on sub-millisecond order).
 */
public final class JobIds {
  private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();
  private static final Pattern VALID = Pattern.compile("[0-7][0-9abcdefghjkmnpqrstvwxyz]{25}");
  private static final Random RANDOM = new SecureRandom();
  private static final long MAX_MILLIS = (1L << 48) - 1;

  private JobIds() {}

  public static String newId() {
    return newId(Clock.systemUTC().millis(), RANDOM);
  }

  /** Visible for tests: the id for a given time and source of randomness. */
  static String newId(long epochMillis, Random random) {
    if (epochMillis < 0 || epochMillis > MAX_MILLIS) {
      throw new IllegalArgumentException("time out of ULID range: " + epochMillis);
    }
    var bytes = new byte[10];
    random.nextBytes(bytes);
    var out = new char[26];
    // 10 characters of 5 bits hold the 48-bit time (the first character carries 3 bits).
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (epochMillis & 31)];
      epochMillis >>>= 5;
    }
    // 16 characters of 5 bits hold the 80 random bits exactly.
    long high = 0;
    for (int i = 0; i < 5; i++) {
      high = (high << 8) | (bytes[i] & 0xff);
    }
    long low = 0;
    for (int i = 5; i < 10; i++) {
      low = (low << 8) | (bytes[i] & 0xff);
    }
    for (int i = 7; i >= 0; i--) {
      out[10 + i] = ALPHABET[(int) (high & 31)];
      high >>>= 5;
      out[18 + i] = ALPHABET[(int) (low & 31)];
      low >>>= 5;
    }
    return new String(out);
  }

  /** Whether {@code id} has the shape of an id made here (for rejecting bad path parameters). */
  public static boolean isValid(String id) {
    return id != null && VALID.matcher(id).matches();
  }
}
