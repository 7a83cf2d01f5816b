package io.trainyard.gateway.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * JSON as kept in the database (specs, decisions, backend references). Reading tolerates fields it
 * does not know, so rows written by a newer gateway stay readable by an older one.
 */
public final class StoredJson {
  private final ObjectMapper mapper =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  public String write(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot store " + value.getClass().getSimpleName(), e);
    }
  }

  public <T> T read(String stored, Class<T> type) {
    try {
      return mapper.readValue(stored, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored " + type.getSimpleName() + " is unreadable", e);
    }
  }
}
