package io.trainyard.gateway.errors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Set;

/**
 * Whole numbers written as strings ({@code "12"}) are read only when written with the digits 0-9.
 * Jackson reads a quoted whole number with {@code Integer.parseInt}, which takes any script's
 * digits: {@code replicas: {master: "١٢"}} (Arabic-Indic) ran 12 replicas, a value no log, audit
 * record or reviewer shows as 12. Also for quoted parameters ({@link StrictParameters}'s
 * converters).
 */
public final class PlainDigits {
  private static final Set<Class<?>> WHOLE =
      Set.of(
          int.class,
          Integer.class,
          long.class,
          Long.class,
          short.class,
          Short.class,
          byte.class,
          Byte.class,
          BigInteger.class);

  private PlainDigits() {}

  /** True when {@code text} is a sign and ASCII digits at most, with at least one digit. */
  public static boolean isPlain(String text) {
    var s = text.strip();
    int start = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
    if (start == s.length()) {
      return false;
    }
    for (int i = start; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** For an {@code ObjectMapper}: quoted whole numbers in other digits are refused. */
  public static SimpleModule module() {
    var module = new SimpleModule("plain-digits");
    module.setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config, BeanDescription bean, JsonDeserializer<?> standard) {
            return WHOLE.contains(bean.getBeanClass()) ? new Checked<>(standard) : standard;
          }
        });
    return module;
  }

  /** The standard deserializer, after a look at a string token. */
  private static final class Checked<T> extends JsonDeserializer<T> {
    private final JsonDeserializer<T> standard;

    Checked(JsonDeserializer<T> standard) {
      this.standard = standard;
    }

    @Override
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.hasToken(JsonToken.VALUE_STRING) && !p.getText().isBlank() && !isPlain(p.getText())) {
        @SuppressWarnings("unchecked")
        T refused =
            (T)
                ctxt.handleWeirdStringValue(
                    handledType(), p.getText(), "is not a whole number written with 0-9");
        return refused;
      }
      return standard.deserialize(p, ctxt);
    }

    @Override
    public Class<?> handledType() {
      return standard.handledType();
    }

    @Override
    public T getNullValue(DeserializationContext ctxt)
        throws com.fasterxml.jackson.databind.JsonMappingException {
      return standard.getNullValue(ctxt);
    }

    @Override
    public AccessPattern getNullAccessPattern() {
      return standard.getNullAccessPattern();
    }

    @Override
    public Object getEmptyValue(DeserializationContext ctxt)
        throws com.fasterxml.jackson.databind.JsonMappingException {
      return standard.getEmptyValue(ctxt);
    }

    @Override
    public Boolean supportsUpdate(DeserializationConfig config) {
      return standard.supportsUpdate(config);
    }

    @Override
    public com.fasterxml.jackson.databind.type.LogicalType logicalType() {
      return standard.logicalType();
    }
  }
}
