package io.trainyard.gateway.errors;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.function.Function;

/**
 * Reads boolean parameters as {@code true} or {@code false} only, and whole-number parameters in
 * the digits 0-9 only. Jersey's own readings are {@code Boolean.valueOf}, for which anything else
 * is false ({@code ?dryRun=maybe} submitted a real job), and {@code Integer.valueOf}, which takes
 * any script's digits ({@code ?limit=١٢}). A refused value becomes a 400 naming the parameter
 * ({@link ApiExceptionMapper}).
 */
public final class StrictParameters implements ParamConverterProvider {
  /** The refusal, carried to the mapper as the parameter exception's cause. */
  static final class NotABoolean extends IllegalArgumentException {
    NotABoolean() {
      super("must be true or false", null);
    }
  }

  private static final ParamConverter<Boolean> BOOLEANS =
      converter(
          value -> {
            if ("true".equalsIgnoreCase(value)) {
              return true;
            }
            if ("false".equalsIgnoreCase(value)) {
              return false;
            }
            throw new NotABoolean();
          });
  private static final ParamConverter<Integer> INTS =
      converter(value -> Integer.valueOf(plain(value)));
  private static final ParamConverter<Long> LONGS = converter(value -> Long.valueOf(plain(value)));

  private static String plain(String value) {
    if (!PlainDigits.isPlain(value)) {
      throw new NumberFormatException("not a whole number in 0-9");
    }
    return value.strip();
  }

  private static <T> ParamConverter<T> converter(Function<String, T> read) {
    return new ParamConverter<>() {
      @Override
      public T fromString(String value) {
        return read.apply(value);
      }

      @Override
      public String toString(T value) {
        return value.toString();
      }
    };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> ParamConverter<T> getConverter(
      Class<T> rawType, Type genericType, Annotation[] annotations) {
    if (rawType == boolean.class || rawType == Boolean.class) {
      return (ParamConverter<T>) BOOLEANS;
    }
    if (rawType == int.class || rawType == Integer.class) {
      return (ParamConverter<T>) INTS;
    }
    if (rawType == long.class || rawType == Long.class) {
      return (ParamConverter<T>) LONGS;
    }
    return null;
  }
}
