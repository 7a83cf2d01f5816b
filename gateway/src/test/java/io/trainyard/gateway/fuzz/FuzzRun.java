package io.trainyard.gateway.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How many inputs a fuzz test generates, and from which seed: input {@code i} is generated from
 * {@code new Random(seed + i)}, so a failure is reproduced from the seed it reports alone. Set by
 * the build ({@code -Dfuzz.tries=N}, {@code -Dfuzz.seed=S}; {@code -Pfuzz} sets 25,000 tries); a
 * run without a seed picks one and prints it.
 */
record FuzzRun(int tries, long seed) {
  static FuzzRun configured() {
    var tries = Integer.getInteger("trainyard.fuzz.tries", 500);
    var seedText = System.getProperty("trainyard.fuzz.seed", "");
    var seed =
        seedText.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seedText);
    return new FuzzRun(tries, seed);
  }

  /** Checks every generated input; the first failure says which seed reproduces it. */
  void check(Function<Random, byte[]> generator, Consumer<byte[]> check) {
    for (int i = 0; i < tries; i++) {
      var inputSeed = seed + i;
      var input = generator.apply(new Random(inputSeed));
      try {
        check.accept(input);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            "input "
                + i
                + " failed; -Dfuzz.seed="
                + inputSeed
                + " -Dfuzz.tries=1 reproduces it:\n"
                + preview(input),
            e);
      }
    }
  }

  private static String preview(byte[] input) {
    var text = new String(input, StandardCharsets.UTF_8);
    return text.length() > 2_000 ? text.substring(0, 2_000) + "..." : text;
  }
}
