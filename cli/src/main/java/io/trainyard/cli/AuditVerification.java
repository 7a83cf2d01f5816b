package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.audit.DigestKeyRing;
import io.trainyard.audit.VerificationReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code trainyard audit verify PATH [--key-id HEX]... [--public-key PEM_FILE]...}: checks an audit
 * export (a directory, or a downloaded blob set) offline with the audit module's verifier: the
 * manifest's signature, every file's hash, every event's hash, the chain across the range, the
 * digests and their signatures. Prints the report, which names the first bad seq and what is wrong;
 * exit 0 only when all holds.
 *
 * <p>The trusted keys are every {@code --key-id} (repeated, or comma-separated) and every key of
 * every {@code --public-key} file (one PEM key, or a ring of several): after a rotation of the
 * signing key, name the keys before and after it. Without either the keys inside the export are
 * trusted, and the report says so.
 */
final class AuditVerification {
  private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{64}");

  private final Terminal terminal;
  private final ObjectMapper json;
  private final CommandLine.Output output;

  AuditVerification(Terminal terminal, ObjectMapper json, CommandLine.Output output) {
    this.terminal = terminal;
    this.json = json;
    this.output = output;
  }

  int run(CommandLine line) {
    if (!line.operands().get(0).equals("verify")) {
      throw Help.unknownSubCommand("audit", line.operands().get(0));
    }
    if (line.operands().size() != 2) {
      throw CliException.usage(
          "usage: trainyard audit verify PATH [--key-id HEX]... [--public-key PEM_FILE]...");
    }
    var dir = terminal.workDir().resolve(line.operands().get(1));
    if (!Files.isDirectory(dir)) {
      throw CliException.usage("not a directory: " + dir);
    }
    var report = AuditVerifier.verify(dir, trustedKeyIds(line));
    if (output == CommandLine.Output.JSON) {
      terminal.out().println(asJson(report));
    } else {
      terminal.out().print(report.toText());
    }
    return report.ok() ? ExitStatus.OK.code() : ExitStatus.FAILED.code();
  }

  private Set<String> trustedKeyIds(CommandLine line) {
    var ids = new LinkedHashSet<String>();
    var keyIds = line.option("--key-id");
    if (keyIds != null) {
      for (var id : keyIds.split("[,\n]", -1)) {
        if (!KEY_ID.matcher(id).matches()) {
          throw CliException.usage("--key-id takes the key's 64 lower-case hex digits");
        }
        ids.add(id);
      }
    }
    var files = line.option("--public-key");
    if (files != null) {
      for (var name : files.split("\n", -1)) {
        var file = terminal.workDir().resolve(name);
        try {
          ids.addAll(
              DigestKeyRing.fromPem(Files.readString(file, StandardCharsets.US_ASCII)).keyIds());
        } catch (IOException | IllegalArgumentException e) {
          throw CliException.usage(
              "--public-key " + name + ": not a PEM file of Ed25519 public keys");
        }
      }
    }
    return ids;
  }

  private String asJson(VerificationReport report) {
    var node = json.createObjectNode();
    node.put("ok", report.ok());
    node.put("eventsChecked", report.eventsChecked());
    node.put("stubsChecked", report.stubsChecked());
    node.put("digestsChecked", report.digestsChecked());
    node.put("keyId", report.keyId());
    var digestKeyIds = node.putArray("digestKeyIds");
    report.digestKeyIds().forEach(digestKeyIds::add);
    var first = report.firstBadSeq();
    if (first.isPresent()) {
      node.put("firstBadSeq", first.getAsLong());
    } else {
      node.putNull("firstBadSeq");
    }
    var findings = node.putArray("findings");
    report
        .findings()
        .forEach(f -> findings.addObject().put("seq", f.seq()).put("problem", f.problem()));
    var notes = node.putArray("notes");
    report.notes().forEach(notes::add);
    try {
      return json.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }
}
