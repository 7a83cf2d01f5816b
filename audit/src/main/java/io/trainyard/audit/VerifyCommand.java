package io.trainyard.audit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code java -cp trainyard-audit.jar io.trainyard.audit.VerifyCommand PATH [--key-id HEX]...
 * [--public-key FILE]...}: verifies an export directory offline and prints a report. Exit code 0
 * only when everything holds, 1 when something does not, 2 when the command was used wrongly.
 *
 * <p>The trusted keys are the union of every {@code --key-id} (repeat it, or separate ids with
 * commas) and every key in every {@code --public-key} file (a PEM file of one key, or a key ring:
 * several {@code PUBLIC KEY} blocks one after the other). After a rotation of the signing key, name
 * the keys before and after it: each digest is checked with the key it names, and one naming a key
 * not given is a failure at its first seq. Without either option the keys the export carries are
 * trusted, and the report says so: a forger who rewrote the export could have replaced those too.
 */
public final class VerifyCommand {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private static final String USAGE_TEXT =
      "usage: VerifyCommand EXPORT_DIR [--key-id HEX[,HEX...]]... [--public-key PEM_FILE]...";

  private VerifyCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args.length % 2 != 1) {
      err.println(USAGE_TEXT);
      return USAGE;
    }
    var dir = Path.of(args[0]);
    if (!Files.isDirectory(dir)) {
      err.println("not a directory: " + dir);
      return USAGE;
    }
    var keyIds = new LinkedHashSet<String>();
    for (int i = 1; i < args.length; i += 2) {
      try {
        keyIds.addAll(trustedKeyIds(args[i], args[i + 1]));
      } catch (IllegalArgumentException | IOException e) {
        err.println(e.getMessage());
        err.println(USAGE_TEXT);
        return USAGE;
      }
    }
    var report = AuditVerifier.verify(dir, keyIds);
    out.print(report.toText());
    return report.ok() ? OK : FAILED;
  }

  private static Set<String> trustedKeyIds(String option, String value) throws IOException {
    return switch (option) {
      case "--key-id" -> {
        var ids = new LinkedHashSet<String>();
        for (var id : value.split(",", -1)) {
          if (!Hex.isHex(id, 32)) {
            throw new IllegalArgumentException("--key-id takes 64 lower-case hex digits");
          }
          ids.add(id);
        }
        yield ids;
      }
      case "--public-key" ->
          new LinkedHashSet<>(
              DigestKeyRing.fromPem(Files.readString(Path.of(value), StandardCharsets.US_ASCII))
                  .keyIds());
      default -> throw new IllegalArgumentException("unknown option " + option);
    };
  }
}
