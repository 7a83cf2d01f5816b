package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.audit.AuditVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code trainyard audit export [--from T] [--to T] [--team T,..] [--action A,..] [--format
 * jsonl|csv] [--name N] [--wait [--dir DIR]]}: starts an export of the audit log into the gateway's
 * sink ({@code POST /v1/audit/exports}); with {@code --wait} downloads its files ({@code GET
 * /v1/audit/exports/{name}/blobs/{file}}) into DIR (default {@code ./NAME}) and verifies them
 * offline as {@code audit verify} does, trusting the key the gateway publishes. Auditors only.
 */
final class AuditExportCommand {
  private final GatewayClient client;
  private final Terminal terminal;
  private final CommandLine.Output output;

  AuditExportCommand(GatewayClient client, Terminal terminal, CommandLine.Output output) {
    this.client = client;
    this.terminal = terminal;
    this.output = output;
  }

  int run(CommandLine line) {
    if (line.operands().size() != 1) {
      throw CliException.usage("usage: trainyard audit " + Command.AUDIT_EXPORT_SYNOPSIS);
    }
    var request = client.parse("{}").deepCopy();
    var body = (com.fasterxml.jackson.databind.node.ObjectNode) request;
    putText(body, "from", line.option("--from"));
    putText(body, "to", line.option("--to"));
    putText(body, "name", line.option("--name"));
    putText(body, "format", line.option("--format"));
    putList(body, "teams", line.option("--team"));
    putList(body, "actions", line.option("--action"));
    var answer =
        client.post(
            "/v1/audit/exports",
            body.toString().getBytes(StandardCharsets.UTF_8),
            "application/json",
            Map.of());
    var export = client.parse(answer);
    if (!line.has("--wait")) {
      if (output == CommandLine.Output.JSON) {
        terminal.out().println(answer.stripTrailing());
      } else {
        summary(export);
      }
      return ExitStatus.OK.code();
    }
    var name = export.path("name").asText();
    var dir =
        terminal.workDir().resolve(line.option("--dir") != null ? line.option("--dir") : name);
    download(export, dir);
    var keyId = client.parse(client.get("/v1/audit/public-key")).path("keyId").asText();
    var report = AuditVerifier.verify(dir, Set.of(keyId));
    if (output == CommandLine.Output.JSON) {
      var node = client.parse("{}").deepCopy();
      var out = (com.fasterxml.jackson.databind.node.ObjectNode) node;
      out.put("name", name);
      out.put("dir", dir.toString());
      out.put("ok", report.ok());
      report.firstBadSeq().ifPresent(seq -> out.put("firstBadSeq", seq));
      terminal.out().println(out.toString());
    } else {
      summary(export);
      terminal.out().println("downloaded into " + dir);
      terminal.out().print(report.toText());
    }
    return report.ok() ? ExitStatus.OK.code() : ExitStatus.FAILED.code();
  }

  private void summary(JsonNode export) {
    terminal
        .out()
        .println(
            "export "
                + export.path("name").asText()
                + ": "
                + export.path("manifest").path("records").asText("?")
                + " record(s), seq "
                + export.path("manifest").path("fromSeq").asText("?")
                + ".."
                + export.path("manifest").path("toSeq").asText("?")
                + (export.path("chainIntactAtExport").asBoolean(true)
                    ? ", chain intact"
                    : ", CHAIN BROKEN at export"));
    for (var blob : export.path("blobs")) {
      terminal.out().println("  " + blob.asText());
    }
  }

  private void download(JsonNode export, Path dir) {
    var name = export.path("name").asText();
    try {
      Files.createDirectories(dir);
      for (var blob : export.path("blobs")) {
        var file = blob.asText().substring(blob.asText().lastIndexOf('/') + 1);
        var target = dir.resolve(file).normalize();
        if (file.isEmpty() || !target.startsWith(dir.normalize())) {
          continue; // not a name this export writes
        }
        Files.write(target, client.getBytes("/v1/audit/exports/" + name + "/blobs/" + file));
      }
    } catch (IOException e) {
      throw CliException.failed("cannot write the export into " + dir + ": " + e.getMessage());
    }
  }

  private static void putText(
      com.fasterxml.jackson.databind.node.ObjectNode body, String field, String value) {
    if (value != null) {
      body.put(field, value);
    }
  }

  private static void putList(
      com.fasterxml.jackson.databind.node.ObjectNode body, String field, String value) {
    if (value != null) {
      var array = body.putArray(field);
      for (var v : value.split(",")) {
        if (!v.isBlank()) {
          array.add(v.strip());
        }
      }
    }
  }
}
