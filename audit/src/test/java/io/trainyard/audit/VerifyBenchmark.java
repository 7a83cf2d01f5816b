package io.trainyard.audit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Not a test: measures how long {@link AuditVerifier} takes on a large export, beside this
 * machine's raw SHA-256 rate. No thresholds; it prints numbers: three runs in one JVM and their
 * median, with the load average (the machines are shared). The export is written once into the
 * given directory and reused by later runs.
 *
 * <pre>
 *   cd audit &amp;&amp; mvn -B test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     io.trainyard.audit.VerifyBenchmark /tmp/audit-bench 1000000
 * </pre>
 */
public final class VerifyBenchmark {
  private VerifyBenchmark() {}

  public static void main(String[] args) throws Exception {
    var dir = Path.of(args.length > 0 ? args[0] : "target/verify-benchmark");
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    System.out.printf(
        "cores: %d, java %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    rawSha256(count);

    var signer = DigestSigner.loadOrGenerate(dir.resolve("keys"));
    var export = dir.resolve("audit").resolve("bench");
    if (Files.exists(export.resolve("manifest.json"))) {
      System.out.println("reusing the export in " + export);
    } else {
      export(dir, signer, count);
    }
    System.out.printf("events.jsonl: %,d bytes%n", Files.size(export.resolve("events.jsonl")));
    var os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    System.out.printf("load average before verifying: %.2f%n", os.getSystemLoadAverage());
    var walls = new double[3];
    for (int run = 1; run <= 3; run++) {
      long start = System.nanoTime();
      long cpu = os.getProcessCpuTime();
      var report = AuditVerifier.verify(export, signer.keyId());
      walls[run - 1] = seconds(start);
      System.out.printf(
          "verify run %d: %.2f s wall, %.2f s CPU, ok=%s, events=%,d, digests=%d,"
              + " load average %.1f%n",
          run,
          walls[run - 1],
          (os.getProcessCpuTime() - cpu) / 1e9,
          report.ok(),
          report.eventsChecked(),
          report.digestsChecked(),
          os.getSystemLoadAverage());
    }
    java.util.Arrays.sort(walls);
    System.out.printf(
        "verify median: %.2f s wall (run 1 includes the JIT warming up, as a fresh"
            + " `audit verify` does)%n",
        walls[1]);
  }

  private static void export(Path dir, DigestSigner signer, int count) throws Exception {
    var source = new GeneratedSource(signer, count, 10_000);
    try (var sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(dir.toString()))) {
      long start = System.nanoTime();
      var result =
          new AuditExporter(sink, signer, Clock.systemUTC(), dir.resolve("tmp"))
              .export(new ExportRequest("bench", 1, count, null, ExportFormat.JSONL), source);
      System.out.printf(
          "export of %,d events: %.2f s, ok=%s%n",
          count, seconds(start), result.checkedAtExport().ok());
    }
    var export = dir.resolve("audit").resolve("bench");
    System.out.printf("events.jsonl: %,d bytes%n", Files.size(export.resolve("events.jsonl")));
    for (int run = 1; run <= 3; run++) {
      long start = System.nanoTime();
      var report = AuditVerifier.verify(export, signer.keyId());
      System.out.printf(
          "verify run %d: %.2f s, ok=%s, events=%,d, digests=%d%n",
          run, seconds(start), report.ok(), report.eventsChecked(), report.digestsChecked());
    }
  }

  /** SHA-256 over one large buffer, over event-sized messages, and over 64-byte chain links. */
  private static void rawSha256(int count) {
    var sha256 = AuditChain.newSha256();
    var big = new byte[1 << 20];
    for (int warm = 0; warm < 2; warm++) {
      long start = System.nanoTime();
      for (int i = 0; i < 512; i++) {
        sha256.update(big);
      }
      sha256.digest();
      System.out.printf(
          "raw SHA-256, 512 MiB in 1 MiB updates: %.0f MB/s%n", 512 * 1.048576 / seconds(start));
    }
    int eventSize = 600;
    var event = new byte[eventSize];
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      event[0] = (byte) i;
      sha256.digest(event);
    }
    System.out.printf(
        "raw SHA-256 of %,d messages of %d bytes: %.2f s%n", count, eventSize, seconds(start));
    var link = new byte[64];
    start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      link[0] = (byte) i;
      sha256.digest(link);
    }
    System.out.printf("raw SHA-256 of %,d chain links (64 bytes): %.2f s%n", count, seconds(start));
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** A chain generated on the fly, so a million events need no memory. */
  private static final class GeneratedSource implements AuditSource {
    private final int count;
    private final List<AuditDigest> digests = new ArrayList<>();

    GeneratedSource(DigestSigner signer, int count, int digestEvery) {
      this.count = count;
      var chain = new AuditChain();
      AuditDigest previous = null;
      for (int i = 1; i <= count; i++) {
        var event = chain.append(TestChain.event(i));
        if (i % digestEvery == 0 || i == count) {
          previous = signer.next(previous, i, event.hash(), TestChain.START);
          digests.add(previous);
        }
      }
    }

    @Override
    public String hashAt(long seq) {
      return AuditChain.GENESIS_HASH; // exports here start at 1
    }

    @Override
    public Stream<ChainedEvent> events(long fromSeq, long toSeq) {
      var chain = new AuditChain();
      return Stream.iterate(1, i -> i <= Math.min(toSeq, count), i -> i + 1)
          .map(i -> chain.append(TestChain.event(i)));
    }

    @Override
    public List<AuditDigest> digestsEndingBetween(long fromSeq, long toSeq) {
      return digests.stream().filter(d -> d.toSeq() >= fromSeq && d.toSeq() <= toSeq).toList();
    }
  }
}
