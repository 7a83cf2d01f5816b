package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code trainyard algorithms list | show NAME | create FILE | publish NAME VERSION FILE | default
 * NAME VERSION}: the algorithm registry. NAME is {@code team/name}, or a bare name when exactly one
 * algorithm the caller may see has it.
 */
final class AlgorithmCommands {
  static final String SYNOPSIS =
      "list | show NAME | create FILE | publish NAME VERSION FILE | default NAME VERSION";

  private final GatewayClient client;
  private final Terminal terminal;
  private final CommandLine.Output output;

  AlgorithmCommands(GatewayClient client, Terminal terminal, CommandLine.Output output) {
    this.client = client;
    this.terminal = terminal;
    this.output = output;
  }

  int run(CommandLine line) {
    var operands = line.operands();
    var verb = operands.get(0);
    return switch (verb) {
      case "list" -> {
        expect(operands, 1);
        yield list();
      }
      case "show" -> {
        expect(operands, 2);
        yield show(operands.get(1));
      }
      case "create" -> {
        expect(operands, 2);
        yield create(operands.get(1));
      }
      case "publish" -> {
        expect(operands, 4);
        yield publish(operands.get(1), operands.get(2), operands.get(3));
      }
      case "default" -> {
        expect(operands, 3);
        yield moveDefault(operands.get(1), operands.get(2));
      }
      default -> throw Help.unknownSubCommand("algorithms", verb);
    };
  }

  private int list() {
    var body = client.get("/v1/algorithms");
    if (raw(body)) {
      return 0;
    }
    var table = new TextTable("NAME", "DEFAULT", "VISIBILITY", "DESCRIPTION");
    for (var a : client.parse(body).path("algorithms")) {
      table.row(
          a.path("name").asText(),
          a.has("defaultVersion") ? a.path("defaultVersion").asText() : "-",
          a.path("visibility").asText(),
          a.path("description").asText(""));
    }
    print(table.lines());
    return 0;
  }

  private int show(String name) {
    var body = client.get("/v1/algorithms/" + qualified(name));
    if (raw(body)) {
      return 0;
    }
    var a = client.parse(body);
    var lines = new ArrayList<String>();
    lines.add(a.path("name").asText() + "  (" + a.path("visibility").asText() + ")");
    if (a.has("description")) {
      lines.add(a.path("description").asText());
    }
    var table = new TextTable("VERSION", "STATUS", "IMAGE", "HYPERPARAMETERS", "PUBLISHED BY");
    for (var v : a.path("versions")) {
      var hyper = new ArrayList<String>();
      for (var h : v.path("definition").path("hyperparameters")) {
        hyper.add(
            h.path("name").asText()
                + ":"
                + h.path("type").asText()
                + (h.has("default") ? "=" + h.path("default").asText() : ""));
      }
      table.row(
          v.path("version").asText() + (v.path("isDefault").asBoolean() ? " (default)" : ""),
          v.path("status").asText(),
          v.path("definition").path("image").asText(),
          String.join(" ", hyper),
          v.path("publishedBy").asText());
    }
    lines.addAll(table.lines());
    print(lines);
    return 0;
  }

  private int create(String file) {
    var path = terminal.workDir().resolve(file);
    var body =
        client.post(
            "/v1/algorithms", JobCommands.readSpec(path), JobCommands.contentType(path), Map.of());
    if (raw(body)) {
      return 0;
    }
    var a = client.parse(body);
    terminal
        .out()
        .println(
            "created "
                + a.path("name").asText()
                + " version "
                + a.path("defaultVersion").asText()
                + " (default)");
    return 0;
  }

  private int publish(String name, String version, String file) {
    var path = terminal.workDir().resolve(file);
    var body =
        client.put(
            "/v1/algorithms/" + qualified(name) + "/versions/" + number(version),
            JobCommands.readSpec(path),
            JobCommands.contentType(path));
    if (raw(body)) {
      return 0;
    }
    var v = client.parse(body);
    terminal.out().println("published " + v.path("reference").asText());
    return 0;
  }

  private int moveDefault(String name, String version) {
    var body =
        client.post(
            "/v1/algorithms/" + qualified(name) + "/default",
            ("{\"version\":" + number(version) + "}").getBytes(StandardCharsets.UTF_8),
            "application/json",
            Map.of());
    if (raw(body)) {
      return 0;
    }
    var a = client.parse(body);
    terminal
        .out()
        .println(a.path("name").asText() + " default is now " + a.path("defaultVersion").asText());
    return 0;
  }

  /** {@code team/name}; a bare name is looked up among the algorithms the caller may see. */
  private String qualified(String name) {
    if (!name.matches("([a-z0-9][-a-z0-9]{0,62}/)?[a-z0-9][-a-z0-9]{0,62}")) {
      throw CliException.usage("NAME must be team/name or name (DNS-1123 labels): " + name);
    }
    if (name.contains("/")) {
      return name;
    }
    var matches = new ArrayList<String>();
    for (JsonNode a : client.parse(client.get("/v1/algorithms")).path("algorithms")) {
      if (a.path("name").asText().endsWith("/" + name)) {
        matches.add(a.path("name").asText());
      }
    }
    if (matches.size() != 1) {
      throw CliException.usage(
          matches.isEmpty()
              ? "no algorithm " + name + " that you may see"
              : name + " is ambiguous: " + String.join(", ", matches) + "; say team/name");
    }
    return matches.get(0);
  }

  private static String number(String version) {
    if (!version.matches("[1-9][0-9]{0,8}")) {
      throw CliException.usage("VERSION must be a whole number from 1: " + version);
    }
    return version;
  }

  private static void expect(List<String> operands, int count) {
    if (operands.size() != count) {
      throw CliException.usage("usage: trainyard algorithms " + SYNOPSIS);
    }
  }

  private boolean raw(String body) {
    if (output == CommandLine.Output.JSON) {
      terminal.out().println(body.stripTrailing());
      return true;
    }
    return false;
  }

  private void print(List<String> lines) {
    lines.forEach(terminal.out()::println);
  }
}
