package io.trainyard.gateway.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Structurally plausible hostile job documents: real Trainyard specs and Kubeflow documents (the
 * repository's examples and the Kubeflow module's golden inputs) with a few mutations each — a
 * value replaced by a wrong type, a huge, tiny or special number, or a string with control
 * characters, lone surrogates or odd Unicode; a field removed or added; deep nesting; YAML-only
 * tokens ({@code .inf}, aliases, tags) — written as JSON or YAML, sometimes then damaged byte by
 * byte. Generated from a {@link Random}, so a failing input is reproduced from its seed ({@link
 * FuzzRun}).
 */
final class HostileDocuments {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  // Non-ASCII escaped, so a lone surrogate travels as \\ud800 rather than as an unencodable char.
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
  private static final YAMLMapper YAML = new YAMLMapper();

  /** Raw tokens spliced into the text where a placeholder string stands. */
  private static final List<String> RAW_TOKENS =
      List.of(
          "1e999999999",
          "1e-999999999",
          "-1e999999999",
          "1e400",
          "1.0e+400",
          "1e20000000",
          "4.9e-324",
          "1e309",
          "-0",
          "9".repeat(41),
          "9".repeat(5_000),
          "0." + "0".repeat(3_000) + "1",
          "9223372036854775808",
          "-9223372036854775809",
          ".inf",
          "-.Inf",
          ".nan",
          ".NaN",
          "0x7FFFFFFFFFFFFFFF",
          "0o777",
          "1_000_000",
          "~",
          "null",
          "yes",
          "!!binary AAAA",
          "!!float 1e999",
          "[]",
          "{}");

  private static final List<String> STRINGS =
      List.of(
          "",
          " ",
          "\u0000",
          "a\u0000b",
          "\ud800",
          "x\udc00",
          "\ud83d\ude80",
          "\u202egnp.exe",
          "\u001b[31mred",
          "\u0085",
          "\u007f",
          "line\nbreak",
          "tab\there",
          "cr\r",
          "caf\u00e9",
          "\ufeff",
          "\uffff",
          "x".repeat(64),
          "x".repeat(254),
          "y".repeat(20_000),
          "../../etc/passwd",
          "..",
          ".",
          "a/b/c",
          "${jndi:ldap://127.0.0.1/x}",
          "$(HOME)",
          "%s%n%x",
          "' OR 1=1 --",
          "<script>alert(1)</script>",
          "9223372036854775807d",
          "106751991167301d",
          "3651d",
          "1e999999999",
          "1e-999999999",
          "9".repeat(900),
          "99999999999999999999Gi",
          "0.0000001Mi",
          "-1",
          "0s",
          "1h30m",
          "32Gi",
          "500m",
          // Every suffix Kubernetes knows, the exa ones among them (E and Ei answered 500).
          "1Ei",
          "1E",
          "+.5E",
          "2Pi",
          "3T",
          "7u",
          "1e30Ki",
          "true",
          "pytorch",
          "worker",
          "Master",
          "cheapest",
          "pinned");

  private static final List<String> KEYS =
      List.of(
          "spec",
          "replicas",
          "resources",
          "limits",
          "memory",
          "cpus",
          "cpu",
          "gpus",
          "nvidia.com/gpu",
          "env",
          "args",
          "command",
          "labels",
          "estimatedHours",
          "maxRuntime",
          "placement",
          "maxHourlyUsd",
          "cleanup",
          "ttlAfterFinished",
          "secretEnv",
          "roles",
          "worker",
          "Worker",
          "template",
          "runPolicy",
          "activeDeadlineSeconds",
          "<<",
          "",
          "\u0000",
          "\ud800",
          "a\nb",
          "../x");

  private final List<JsonNode> bases;

  private HostileDocuments(List<String> texts) {
    var trees = new ArrayList<JsonNode>();
    for (var text : texts) {
      try {
        trees.add(YAML.readTree(text));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("a base document does not parse", e);
      }
    }
    this.bases = List.copyOf(trees);
  }

  /** Trainyard specs: the examples and the golden expected specs. */
  static HostileDocuments trainyard() {
    var files = new ArrayList<Path>();
    files.add(REPO.resolve("examples/linear-regression.yaml"));
    files.add(REPO.resolve("examples/pytorch-ddp.yaml"));
    files.addAll(golden("spec.yaml"));
    return new HostileDocuments(read(files));
  }

  /** Kubeflow documents: the golden inputs, the TrainJobs the writer renders, and the seeds. */
  static HostileDocuments kubeflow() {
    var files = new ArrayList<>(golden("input.yaml"));
    // A rendered TrainJob is a TrainJob as a user would submit it: the TrainJob reader's input.
    golden("rendered.yaml").stream()
        .filter(f -> f.getParent().getFileName().toString().startsWith("trainjob-"))
        .forEach(files::add);
    try (Stream<Path> seeds = Files.list(REPO.resolve("kubeflow/src/test/resources/seeds"))) {
      seeds.sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new HostileDocuments(read(files));
  }

  /** A base document with up to five mutations, as bytes. */
  byte[] generate(Random random) {
    return mutate(bases.get(random.nextInt(bases.size())), random, random.nextInt(6));
  }

  /** The documents as text, for a request body. */
  static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }

  private static byte[] mutate(JsonNode base, Random random, int mutations) {
    var tree = base.deepCopy();
    var raw = new ArrayList<String>();
    for (int i = 0; i < mutations; i++) {
      mutateOnce(tree, random, raw);
    }
    String text;
    try {
      text = random.nextBoolean() ? JSON.writeValueAsString(tree) : YAML.writeValueAsString(tree);
    } catch (JsonProcessingException e) {
      try {
        text = JSON.writeValueAsString(tree); // YAML cannot write every string; JSON escapes it
      } catch (JsonProcessingException again) {
        throw new IllegalStateException(again);
      }
    }
    for (int i = 0; i < raw.size(); i++) {
      text = text.replace("\"@@RAW" + i + "@@\"", raw.get(i));
    }
    var bytes = text.getBytes(StandardCharsets.UTF_8);
    return random.nextInt(10) == 0 ? damage(bytes, random) : bytes;
  }

  private static void mutateOnce(JsonNode tree, Random random, List<String> raw) {
    var slots = new ArrayList<Slot>();
    collect(tree, slots);
    if (slots.isEmpty()) {
      return;
    }
    var slot = slots.get(random.nextInt(slots.size()));
    switch (random.nextInt(8)) {
      case 0 -> slot.set(TextNode.valueOf(pick(STRINGS, random)));
      case 1 -> {
        slot.set(TextNode.valueOf("@@RAW" + raw.size() + "@@"));
        raw.add(pick(RAW_TOKENS, random));
      }
      case 2 -> slot.set(number(random));
      case 3 -> slot.remove();
      case 4 -> {
        if (slot.parent instanceof ObjectNode object) {
          object.set(pick(KEYS, random), hostileValue(random, raw));
        }
      }
      case 5 -> {
        // Spliced as text: Jackson would refuse to write what the parsers must refuse to read.
        slot.set(TextNode.valueOf("@@RAW" + raw.size() + "@@"));
        raw.add(nested(random.nextInt(3) == 0 ? 3_000 : 40));
      }
      case 6 -> {
        var list = JsonNodeFactory.instance.arrayNode();
        var n = random.nextInt(3) == 0 ? 5_000 : 3;
        for (int i = 0; i < n; i++) {
          list.add(TextNode.valueOf("v" + i));
        }
        slot.set(list);
      }
      default -> {
        var object = JsonNodeFactory.instance.objectNode();
        object.set(pick(KEYS, random), hostileValue(random, raw));
        slot.set(object);
      }
    }
  }

  private static JsonNode hostileValue(Random random, List<String> raw) {
    return switch (random.nextInt(3)) {
      case 0 -> TextNode.valueOf(pick(STRINGS, random));
      case 1 -> number(random);
      default -> {
        raw.add(pick(RAW_TOKENS, random));
        yield TextNode.valueOf("@@RAW" + (raw.size() - 1) + "@@");
      }
    };
  }

  private static JsonNode number(Random random) {
    var f = JsonNodeFactory.instance;
    return switch (random.nextInt(8)) {
      case 0 -> f.numberNode(random.nextInt());
      case 1 -> f.numberNode(random.nextLong());
      case 2 -> f.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 3 -> f.numberNode(new BigDecimal("1e" + (random.nextInt(80) - 40)));
      case 4 -> f.numberNode(Integer.MAX_VALUE + 1L);
      case 5 -> f.numberNode(-random.nextInt(1000));
      case 6 -> f.numberNode(0);
      default -> f.numberNode(new BigDecimal(random.nextInt(100_000) + "." + random.nextInt(999)));
    };
  }

  private static String nested(int depth) {
    var open = new StringBuilder();
    var close = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      open.append(i % 2 == 0 ? "[" : "{\"d\": ");
      close.insert(0, i % 2 == 0 ? "]" : "}");
    }
    return open + "\"deep\"" + close;
  }

  private static byte[] damage(byte[] bytes, Random random) {
    var out = bytes.clone();
    if (out.length == 0) {
      return out;
    }
    return switch (random.nextInt(4)) {
      case 0 -> java.util.Arrays.copyOf(out, random.nextInt(out.length));
      case 1 -> {
        out[random.nextInt(out.length)] = (byte) random.nextInt(256);
        yield out;
      }
      case 2 -> {
        out[random.nextInt(out.length)] = (byte) 0xff; // never valid UTF-8
        yield out;
      }
      default -> {
        var bom = new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
        var withBom = new byte[out.length + 3];
        System.arraycopy(bom, 0, withBom, 0, 3);
        System.arraycopy(out, 0, withBom, 3, out.length);
        yield withBom;
      }
    };
  }

  /** A place in the tree that a mutation can replace or remove. */
  private record Slot(JsonNode parent, String key, int index) {
    void set(JsonNode value) {
      if (parent instanceof ObjectNode object) {
        object.set(key, value);
      } else if (parent instanceof ArrayNode array) {
        array.set(index, value);
      }
    }

    void remove() {
      if (parent instanceof ObjectNode object) {
        object.remove(key);
      } else if (parent instanceof ArrayNode array) {
        array.remove(index);
      }
    }
  }

  private static void collect(JsonNode node, List<Slot> slots) {
    if (node instanceof ObjectNode object) {
      object
          .properties()
          .forEach(
              e -> {
                slots.add(new Slot(object, e.getKey(), -1));
                collect(e.getValue(), slots);
              });
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        slots.add(new Slot(array, null, i));
        collect(array.get(i), slots);
      }
    }
  }

  private static <T> T pick(List<T> values, Random random) {
    return values.get(random.nextInt(values.size()));
  }

  private static List<Path> golden(String file) {
    try (Stream<Path> dirs = Files.list(REPO.resolve("kubeflow/src/test/resources/golden"))) {
      return dirs.sorted().map(d -> d.resolve(file)).filter(Files::exists).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> read(List<Path> files) {
    var texts = new ArrayList<String>();
    for (var f : files) {
      try {
        texts.add(Files.readString(f));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return List.copyOf(texts);
  }
}
