package io.trainyard.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A line's pool travels in the stored decision; lines stored before it existed still read. */
class PlacementLineTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void aLineWithItsPoolRoundTrips() throws Exception {
    var line = new PlacementLine(List.of("ps"), "m5.2xlarge", 1, null, 0, "cpu");
    var text = json.writeValueAsString(line);
    assertThat(text).contains("\"pool\":\"cpu\"");
    assertThat(json.readValue(text, PlacementLine.class)).isEqualTo(line);
  }

  @Test
  void aLineWithoutAPoolOmitsItAndOldLinesRead() throws Exception {
    var line = new PlacementLine(List.of("master"), "ml.g5.xlarge", 1, "nvidia-a10g", 1);
    assertThat(json.writeValueAsString(line)).doesNotContain("pool");
    var old =
        "{\"roles\":[\"master\"],\"instanceType\":\"ml.g5.xlarge\",\"count\":1,"
            + "\"gpuType\":\"nvidia-a10g\",\"gpus\":1}";
    assertThat(json.readValue(old, PlacementLine.class)).isEqualTo(line);
  }
}
