package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.audit.VerificationReport;
import java.nio.file.Files;
import java.util.regex.Pattern;

/**
 * {@code trainyard audit verify PATH [--key-id HEX]}: checks an audit export (a directory, or a
 * downloaded blob set) offline with the audit module's verifier: the manifest's signature, every
 * file's hash, every event's hash, the chain across the range, the digests and their signatures.
 * Prints the report, which names the first bad seq and what is wrong; exit 0 only when all holds.
 * Without {@code --key-id} the key inside the export is trusted, and the report says so.
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
      throw CliException.usage(
          "unknown audit command '"
              + line.operands().get(0)
              + "' — usage: trainyard audit verify PATH [--key-id HEX]");
    }
    var dir = terminal.workDir().resolve(line.operands().get(1));
    if (!Files.isDirectory(dir)) {
      throw CliException.usage("not a directory: " + dir);
    }
    var keyId = line.option("--key-id");
    if (keyId != null && !KEY_ID.matcher(keyId).matches()) {
      throw CliException.usage("--key-id takes the key's 64 lower-case hex digits");
    }
    var report = AuditVerifier.verify(dir, keyId);
    if (output == CommandLine.Output.JSON) {
      terminal.out().println(asJson(report));
    } else {
      terminal.out().print(report.toText());
    }
    return report.ok() ? ExitStatus.OK.code() : ExitStatus.FAILED.code();
  }

  private String asJson(VerificationReport report) {
    var node = json.createObjectNode();
    node.put("ok", report.ok());
    node.put("eventsChecked", report.eventsChecked());
    node.put("stubsChecked", report.stubsChecked());
    node.put("digestsChecked", report.digestsChecked());
    node.put("keyId", report.keyId());
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
