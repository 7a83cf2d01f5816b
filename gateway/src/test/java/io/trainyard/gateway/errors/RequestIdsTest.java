package io.trainyard.gateway.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
  @Test
  void aNewIdIsARandomUuidOfVersionFour() {
    var seen = new HashSet<String>();
    for (int i = 0; i < 10_000; i++) {
      var id = RequestIds.newId();
      var uuid = UUID.fromString(id);
      assertThat(uuid.version()).as(id).isEqualTo(4);
      assertThat(uuid.variant()).as(id).isEqualTo(2);
      assertThat(uuid.toString()).isEqualTo(id);
      seen.add(id);
    }
    assertThat(seen).hasSize(10_000);
  }
}
