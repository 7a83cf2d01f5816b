package io.trainyard.backend.local;

/**
 * The uids the {@code users} sandbox hands out, inclusive at both ends.
 *
 * @param first the lowest uid; above 65535 so it never meets a system or human account
 * @param last the highest uid
 */
public record UidRange(int first, int last) {
  static final String DEFAULT = "200000-200999";

  public UidRange {
    if (first < 1000 || last < first) {
      throw new IllegalArgumentException(
          "uidRange must be FIRST-LAST with 1000 <= FIRST <= LAST, not " + first + "-" + last);
    }
  }

  static UidRange parse(String text) {
    var parts = text.trim().split("-", -1);
    if (parts.length != 2 || parts[0].length() > 9 || parts[1].length() > 9) {
      throw new IllegalArgumentException(
          "uidRange must look like 200000-200999, not '" + text + "'");
    }
    try {
      return new UidRange(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "uidRange must look like 200000-200999, not '" + text + "'", e);
    }
  }

  boolean contains(int uid) {
    return uid >= first && uid <= last;
  }
}
