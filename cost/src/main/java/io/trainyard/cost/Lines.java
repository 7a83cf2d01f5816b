package io.trainyard.cost;

import io.trainyard.spi.Placement;
import java.util.stream.Collectors;

/** How a placement's lines read in a reason: {@code 2 × g5.12xlarge + 1 × m5.2xlarge}. */
final class Lines {
  private Lines() {}

  static String describe(Placement p) {
    var text =
        p.lines().stream()
            .map(l -> l.count() + " × " + l.instanceType())
            .collect(Collectors.joining(" + "));
    return text.isEmpty() ? p.service() : text;
  }
}
