package io.trainyard.audit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code java -cp trainyard-audit.jar io.trainyard.audit.VerifyCommand PATH [--key-id HEX |
 * --public-key FILE]}: verifies an export directory offline and prints a report. Exit code 0 only
 * when everything holds, 1 when something does not, 2 when the command was used wrongly.
 *
 * <p>Without {@code --key-id} or {@code --public-key} the key the export carries is trusted, and
 * the report says so: a forger who rewrote the export could have replaced that key too.
 */
public final class VerifyCommand {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private static final String USAGE_TEXT =
      "usage: VerifyCommand EXPORT_DIR [--key-id HEX | --public-key PEM_FILE]";

  private VerifyCommand() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length != 1 && args.length != 3) {
      err.println(USAGE_TEXT);
      return USAGE;
    }
    var dir = Path.of(args[0]);
    if (!Files.isDirectory(dir)) {
      err.println("not a directory: " + dir);
      return USAGE;
    }
    String keyId = null;
    if (args.length == 3) {
      try {
        keyId = trustedKeyId(args[1], args[2]);
      } catch (IllegalArgumentException | IOException e) {
        err.println(e.getMessage());
        err.println(USAGE_TEXT);
        return USAGE;
      }
    }
    var report = AuditVerifier.verify(dir, keyId);
    out.print(report.toText());
    return report.ok() ? OK : FAILED;
  }

  private static String trustedKeyId(String option, String value) throws IOException {
    return switch (option) {
      case "--key-id" -> {
        if (!Hex.isHex(value, 32)) {
          throw new IllegalArgumentException("--key-id takes 64 lower-case hex digits");
        }
        yield value;
      }
      case "--public-key" ->
          DigestVerifier.fromPem(Files.readString(Path.of(value), StandardCharsets.US_ASCII))
              .keyId();
      default -> throw new IllegalArgumentException("unknown option " + option);
    };
  }
}
