package io.trainyard.gateway.errors;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Reads boolean parameters as {@code true} or {@code false} only. Jersey's own reading is {@code
 * Boolean.valueOf}, for which anything else is false: {@code ?dryRun=maybe} submitted a real job. A
 * refused value becomes a 400 naming the parameter ({@link ApiExceptionMapper}).
 */
public final class StrictBooleans implements ParamConverterProvider {
  /** The refusal, carried to the mapper as the parameter exception's cause. */
  static final class NotABoolean extends IllegalArgumentException {
    NotABoolean() {
      super("must be true or false", null);
    }
  }

  private static final ParamConverter<Boolean> CONVERTER =
      new ParamConverter<>() {
        @Override
        public Boolean fromString(String value) {
          if ("true".equalsIgnoreCase(value)) {
            return true;
          }
          if ("false".equalsIgnoreCase(value)) {
            return false;
          }
          throw new NotABoolean();
        }

        @Override
        public String toString(Boolean value) {
          return value.toString();
        }
      };

  @Override
  @SuppressWarnings("unchecked")
  public <T> ParamConverter<T> getConverter(
      Class<T> rawType, Type genericType, Annotation[] annotations) {
    return rawType == boolean.class || rawType == Boolean.class
        ? (ParamConverter<T>) CONVERTER
        : null;
  }
}
