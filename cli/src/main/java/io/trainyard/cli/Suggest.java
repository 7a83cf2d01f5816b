package io.trainyard.cli;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean …?": the known word closest to a mistyped one, if any is close enough. */
final class Suggest {
  private Suggest() {}

  /**
   * The candidate with the fewest edits (insert, delete, replace, swap of two neighbours) from
   * {@code typed}, if that is at most a third of its length (at least one edit), or the only
   * candidate {@code typed} is a prefix of ({@code stat} → {@code status}).
   */
  static Optional<String> closest(String typed, Collection<String> candidates) {
    String word = typed.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String prefixed = null;
    int prefixCount = 0;
    for (String candidate : candidates) {
      if (candidate.equals(typed)) {
        continue;
      }
      int distance = distance(word, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = candidate;
      }
      if (word.length() >= 2 && candidate.startsWith(word)) {
        prefixed = candidate;
        prefixCount++;
      }
    }
    // "--" and "-" do not count: "--dryrun" is 6 letters that matter, not 8.
    int letters = word.replaceFirst("^-+", "").length();
    if (best != null && bestDistance <= Math.max(1, letters / 3)) {
      return Optional.of(best);
    }
    return prefixCount == 1 ? Optional.of(prefixed) : Optional.empty();
  }

  /** {@code "; did you mean 'submit'?"}, to append to an error message. */
  static String didYouMean(String suggestion) {
    return "; did you mean "
        + (suggestion.startsWith("-") ? suggestion : "'" + suggestion + "'")
        + "?";
  }

  /** Optimal string alignment distance. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
