package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.AuditEvent;
import io.trainyard.audit.AuditExporter;
import io.trainyard.audit.AuditSource;
import io.trainyard.audit.BlobSink;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.audit.DigestKeyRing;
import io.trainyard.audit.DigestSigner;
import io.trainyard.audit.ExportFilter;
import io.trainyard.audit.ExportFormat;
import io.trainyard.audit.ExportRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code trainyard audit verify} on a real export, as written, tampered with, or mis-keyed. */
class AuditVerificationTest {
  @TempDir Path workDir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private DigestSigner signer;

  @BeforeEach
  void export() throws IOException {
    signer = DigestSigner.loadOrGenerate(Files.createDirectories(workDir.resolve("keys")));
    var chain = new AuditChain();
    var events = new ArrayList<ChainedEvent>();
    var digests = new ArrayList<AuditDigest>();
    var time = Instant.parse("2030-01-01T00:00:00Z");
    for (int seq = 1; seq <= 50; seq++) {
      var event =
          AuditEvent.builder()
              .seq(seq)
              .time(time.plusSeconds(seq))
              .actor(new AuditActor("sub-alice", "alice", "cli", "10.0.0.7", "req-" + seq))
              .action(AuditActions.JOB_STATE)
              .resource("job/" + seq)
              .team("nlp")
              .details(Map.of("to", "RUNNING", "hourlyUsd", "1.25"))
              .build();
      events.add(chain.append(event));
      if (seq % 10 == 0) {
        var previous = digests.isEmpty() ? null : digests.get(digests.size() - 1);
        digests.add(signer.next(previous, seq, chain.lastHash(), time.plusSeconds(seq)));
      }
    }
    var exporter =
        new AuditExporter(
            new DirectorySink(workDir), signer, Clock.systemUTC(), workDir.resolve("tmp"));
    exporter.export(
        new ExportRequest("export-1", 1, 50, ExportFilter.ALL, ExportFormat.JSONL),
        new ListSource(events, digests));
  }

  @Test
  void anIntactExportVerifiesAgainstThePublishedKey() {
    assertThat(run("audit", "verify", "export-1", "--key-id", signer.keyId())).isZero();
    assertThat(out.toString()).startsWith("OK").contains("events checked: 50");
  }

  @Test
  void anEditedEventIsNamedBySeqAndFails() throws IOException {
    var file = workDir.resolve("export-1/events.jsonl");
    var lines = Files.readAllLines(file);
    lines.set(16, lines.get(16).replace("\"alice\"", "\"mallory\""));
    Files.write(file, lines);
    assertThat(run("audit", "verify", "export-1", "--key-id", signer.keyId())).isEqualTo(1);
    assertThat(out.toString()).startsWith("FAILED").contains("first bad seq: 17");
  }

  @Test
  void anotherKeyIsRefusedAndJsonSaysWhere() {
    int status = run("--output", "json", "audit", "verify", "export-1", "--key-id", "0".repeat(64));
    assertThat(status).isEqualTo(1);
    assertThat(out.toString()).contains("\"ok\":false").contains("not the trusted key");
  }

  @Test
  void anExportSpanningAKeyRotationVerifiesWithBothKeysAndNotWithTheNewOneAlone()
      throws IOException {
    var newSigner = DigestSigner.loadOrGenerate(Files.createDirectories(workDir.resolve("new")));
    // The same events, the digests from seq 31 on signed with the new key.
    var source = readBack("export-1");
    var digests = new ArrayList<AuditDigest>(source.digests().subList(0, 3));
    for (int seq = 40; seq <= 50; seq += 10) {
      var previous = digests.get(digests.size() - 1);
      digests.add(
          newSigner.next(
              previous, seq, source.events().get(seq - 1).hash(), previous.time().plusSeconds(10)));
    }
    new AuditExporter(
            new DirectorySink(workDir),
            newSigner,
            DigestKeyRing.of(signer.verifier()),
            Clock.systemUTC(),
            workDir.resolve("tmp"))
        .export(
            new ExportRequest("rotated", 1, 50, ExportFilter.ALL, ExportFormat.JSONL),
            new ListSource(source.events(), digests));

    assertThat(
            run(
                "audit",
                "verify",
                "rotated",
                "--key-id",
                signer.keyId(),
                "--key-id",
                newSigner.keyId()))
        .as(out.toString())
        .isZero();
    assertThat(out.toString()).contains("digest key ids: ");
    Files.writeString(
        workDir.resolve("ring.pem"), signer.publicKeyPem() + newSigner.publicKeyPem());
    assertThat(run("audit", "verify", "rotated", "--public-key", "ring.pem")).isZero();

    assertThat(run("--output", "json", "audit", "verify", "rotated", "--key-id", newSigner.keyId()))
        .isEqualTo(1);
    assertThat(out.toString()).contains("\"firstBadSeq\":1,", "not a trusted key");
  }

  /** The chain and digests the BeforeEach exported, read back from its files. */
  private ListSource readBack(String export) throws IOException {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    var events = new ArrayList<ChainedEvent>();
    for (var line : Files.readAllLines(workDir.resolve(export).resolve("events.jsonl"))) {
      events.add(ChainedEvent.fromTree(mapper.readTree(line)));
    }
    var digests = new ArrayList<AuditDigest>();
    for (var line : Files.readAllLines(workDir.resolve(export).resolve("digests.jsonl"))) {
      digests.add(AuditDigest.fromTree(mapper.readTree(line)));
    }
    return new ListSource(events, digests);
  }

  @Test
  void wrongUseIsAUsageError() {
    assertThat(run("audit", "verify", "nowhere")).isEqualTo(2);
    assertThat(err.toString()).contains("not a directory");
    assertThat(run("audit", "check", "export-1")).isEqualTo(2);
    assertThat(run("audit", "verify", "export-1", "--key-id", "xyz")).isEqualTo(2);
    assertThat(run("audit", "verify", "export-1", "--public-key", "missing.pem")).isEqualTo(2);
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of(),
            workDir);
    return TrainyardCli.run(args, terminal);
  }

  /** The chain in memory, as the gateway's tables would give it. */
  private record ListSource(List<ChainedEvent> events, List<AuditDigest> digests)
      implements AuditSource {
    @Override
    public String hashAt(long seq) {
      return seq == 0 ? AuditChain.GENESIS_HASH : events.get((int) seq - 1).hash();
    }

    @Override
    public Stream<ChainedEvent> events(long fromSeq, long toSeq) {
      return events.subList((int) fromSeq - 1, (int) toSeq).stream();
    }

    @Override
    public List<AuditDigest> digestsEndingBetween(long fromSeq, long toSeq) {
      return digests.stream().filter(d -> d.toSeq() >= fromSeq && d.toSeq() <= toSeq).toList();
    }
  }

  /** A blob sink onto a directory, so the test needs no jclouds (the CLI does not ship it). */
  private record DirectorySink(Path dir) implements BlobSink {
    @Override
    public void put(String name, byte[] content) {
      try {
        Files.createDirectories(dir.resolve(name).getParent());
        Files.write(dir.resolve(name), content);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void put(String name, Path file) {
      try {
        put(name, Files.readAllBytes(file));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void put(String name, InputStream content, long length) {
      try {
        put(name, content.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public InputStream open(String name) {
      try {
        return Files.newInputStream(dir.resolve(name));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean exists(String name) {
      return Files.exists(dir.resolve(name));
    }

    @Override
    public List<String> list(String prefix) {
      throw new UnsupportedOperationException("not needed to write an export");
    }

    @Override
    public void close() {}
  }
}
