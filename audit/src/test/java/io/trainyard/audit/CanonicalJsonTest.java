package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Random;
import org.erdtman.jcs.JsonCanonicalizer;
import org.erdtman.jcs.NumberToJSON;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RFC 8785's own examples (section 3.2.2, 3.2.3 and Appendix B), the published JCS test data, and a
 * differential check against an independent implementation on random input.
 */
class CanonicalJsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static String canonical(String json) throws Exception {
    return CanonicalJson.text(MAPPER.readTree(json));
  }

  @Test
  void rfc8785Section322Example() throws Exception {
    var input =
        "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
            + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
            + "  \"literals\": [null, true, false]\n}";
    assertThat(canonical(input))
        .isEqualTo(
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,"
                + "1e-27],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
  }

  @Test
  void rfc8785Section323SortsByUtf16CodeUnits() throws Exception {
    var input =
        "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\", \"\\ufb33\": \"Hebrew\","
            + " \"1\": \"One\", \"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\","
            + " \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}";
    // U+1F600 is the surrogate pair D83D DE00, which sorts before U+FB33 by code units although
    // it comes after it by code point.
    assertThat(canonical(input))
        .isEqualTo(
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin"
                + " Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew\"}");
  }

  @Test
  void nestedStructuresSortAtEveryLevelAndKeepArrayOrder() throws Exception {
    var input =
        "{\"1\": {\"f\": {\"f\": \"hi\",\"F\": 5} ,\"\\n\": 56.0}, \"10\": { }, \"\": \"empty\","
            + " \"a\": { }, \"111\": [ {\"e\": \"yes\", \"E\": \"no\"} ], \"A\": { }}";
    assertThat(canonical(input))
        .isEqualTo(
            "{\"\":\"empty\",\"1\":{\"\\n\":56,\"f\":{\"F\":5,\"f\":\"hi\"}},\"10\":{},"
                + "\"111\":[{\"E\":\"no\",\"e\":\"yes\"}],\"A\":{},\"a\":{}}");
  }

  @Test
  void escapesOnlyWhatJsonStringifyEscapes() throws Exception {
    assertThat(canonical("{\"k\":\"</script>\\u007f\\u2028\\u0001\\b\\t\"}"))
        .isEqualTo("{\"k\":\"</script>\u007f\u2028\\u0001\\b\\t\"}");
    assertThat(CanonicalJson.bytes(MAPPER.readTree("\"€\"")))
        .containsExactly(0x22, 0xe2, 0x82, 0xac, 0x22);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2"
  })
  void rfc8785AppendixBNumbers(String ieeeHex, String expected) {
    double value = Double.longBitsToDouble(Long.parseUnsignedLong(ieeeHex, 16));
    assertThat(EcmaScriptNumber.format(value)).isEqualTo(expected);
  }

  @Test
  void refusesWhatJsonCannotCarry() {
    assertThatThrownBy(() -> EcmaScriptNumber.format(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EcmaScriptNumber.format(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CanonicalJson.text(JsonNodeFactory.instance.textNode("a\ud800b")))
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void numbersAgreeWithAnIndependentImplementation() throws Exception {
    var random = new Random(8785);
    for (int i = 0; i < 100_000; i++) {
      double value =
          switch (i % 4) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
            case 2 -> Math.scalb(1.0, random.nextInt(2000) - 1000); // powers of two
            default -> (double) random.nextLong() / (1 + random.nextInt(1000));
          };
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        continue;
      }
      assertThat(EcmaScriptNumber.format(value))
          .as("bits %016x", Double.doubleToRawLongBits(value))
          .isEqualTo(NumberToJSON.serializeNumber(value));
    }
  }

  @Test
  void documentsAgreeWithAnIndependentImplementation() throws Exception {
    var random = new Random(7493);
    for (int i = 0; i < 2_000; i++) {
      var tree = RandomJson.object(random, 3);
      var json = MAPPER.writeValueAsString(tree);
      assertThat(CanonicalJson.text(tree))
          .isEqualTo(new JsonCanonicalizer(json).getEncodedString());
    }
  }

  @Test
  void anEventHashesTheSameAfterAJsonbStyleRoundTrip() throws Exception {
    // PostgreSQL jsonb reorders members and may print 1.50 as 1.50 or 1.5: canonical form is
    // immune to both, so an event read back from the database hashes as it did when written.
    var a = MAPPER.readTree("{\"b\":1.50,\"a\":{\"y\":[1,2],\"x\":\"€\"}}");
    var b = MAPPER.readTree("{\"a\":{\"x\":\"\\u20ac\",\"y\":[1.0,2]},\"b\":1.5}");
    assertThat(CanonicalJson.bytes(a)).isEqualTo(CanonicalJson.bytes(b));
  }
}
