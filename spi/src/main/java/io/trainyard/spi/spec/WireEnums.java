package io.trainyard.spi.spec;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Looks up an enum constant by its wire name, with an error that lists the allowed values. */
final class WireEnums {
  private WireEnums() {}

  static <E extends Enum<E>> E parse(Class<E> type, String value, Function<E, String> wireName) {
    for (var e : type.getEnumConstants()) {
      if (wireName.apply(e).equals(value)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "unknown value '"
            + value
            + "'; one of "
            + Arrays.stream(type.getEnumConstants())
                .map(wireName)
                .collect(Collectors.joining(", ")));
  }
}
