package io.trainyard.gateway.reconcile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.trainyard.audit.BlobSink;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.SecretScrubber;
import io.trainyard.spi.TrainingBackend;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The logs of ended attempts, kept in a blob store for backends whose logs go with what ran the job
 * ({@link TrainingBackend#keepsLogs()} false: Kubernetes pods).
 *
 * <p>One blob per attempt, {@code jobs/<job id>/attempt-<n>.jsonl.gz}: gzip'd JSON Lines of {@code
 * {replica, at, text}}, every replica's lines in the order the backend gave them. A blob is written
 * whole from a local temporary file, so a reader sees all of it or none. Past {@code maxBytes} of
 * text the archive stops with a line from replica {@value #OWN_REPLICA} saying so.
 */
public final class LogArchive {
  /** The replica name of the archive's own lines. */
  static final String OWN_REPLICA = "trainyard";

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .findAndRegisterModules()
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  private final BlobSink sink;
  private final long maxBytes;
  private final io.trainyard.gateway.metrics.LogMetrics metrics;

  /** What archiving an attempt did. */
  public record Summary(long lines, long bytes, boolean truncated) {
    String describe(int attempt) {
      return "logs of attempt "
          + attempt
          + " archived: "
          + lines
          + " lines, "
          + bytes
          + " bytes"
          + (truncated ? " (truncated)" : "");
    }
  }

  /** One archived line. */
  record Entry(String replica, Instant at, String text) {}

  public LogArchive(BlobSink sink, long maxBytes) {
    this(sink, maxBytes, io.trainyard.gateway.metrics.LogMetrics.NONE);
  }

  /**
   * @param metrics stores the {@code trainyard-metric} lines of what is archived
   */
  public LogArchive(BlobSink sink, long maxBytes, io.trainyard.gateway.metrics.LogMetrics metrics) {
    this.sink = sink;
    this.maxBytes = maxBytes;
    this.metrics = metrics;
  }

  static String name(String jobId, int attempt) {
    return "jobs/" + jobId + "/attempt-" + attempt + ".jsonl.gz";
  }

  public boolean has(String jobId, int attempt) {
    return sink.exists(name(jobId, attempt));
  }

  /**
   * Reads every replica's logs of the ended attempt {@code ref} from {@code backend} and stores
   * them. An attempt without logs (no pods left) stores an empty archive.
   *
   * @throws UncheckedIOException the temporary file or the blob store failed
   */
  public Summary archive(String jobId, int attempt, TrainingBackend backend, ExternalRef ref) {
    try {
      var file = Files.createTempFile("trainyard-logs-", ".jsonl.gz");
      try {
        Summary summary;
        try (Writer out =
            new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(file)), StandardCharsets.UTF_8)) {
          summary = copy(backend, ref, out, metrics.batch(jobId));
        }
        sink.put(name(jobId, attempt), file);
        return summary;
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot archive the logs of " + ref.name(), e);
    }
  }

  private Summary copy(
      TrainingBackend backend,
      ExternalRef ref,
      Writer out,
      io.trainyard.gateway.metrics.LogMetrics.Batch metricLines)
      throws IOException {
    try {
      return copyLines(backend, ref, out, metricLines);
    } finally {
      metricLines.flush();
    }
  }

  private Summary copyLines(
      TrainingBackend backend,
      ExternalRef ref,
      Writer out,
      io.trainyard.gateway.metrics.LogMetrics.Batch metricLines)
      throws IOException {
    long lines = 0;
    long bytes = 0;
    try (var stream = backend.logs(ref, LogQuery.ALL)) {
      for (var line = stream.next(); line.isPresent(); line = stream.next()) {
        // What the backend did not scrub (it may not know the values) loses its tokens here.
        var text = SecretScrubber.shapes().scrub(line.get().text());
        var size = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes + size > maxBytes) {
          write(
              out,
              new Entry(
                  OWN_REPLICA, null, "archive truncated at " + maxBytes + " bytes of log text"));
          return new Summary(lines, bytes, true);
        }
        write(out, new Entry(line.get().replica(), line.get().at(), text));
        metricLines.line(text, line.get().at());
        lines++;
        bytes += size;
      }
    } catch (BackendException.NotFound e) {
      // Nothing left to read: an empty archive says so.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while archiving " + ref.name());
    }
    return new Summary(lines, bytes, false);
  }

  private static void write(Writer out, Entry entry) throws IOException {
    out.write(JSON.writeValueAsString(entry));
    out.write('\n');
  }

  /**
   * The archived lines of an attempt that {@code query} selects (replica, since); never follows.
   */
  public Optional<LogStream> open(String jobId, int attempt, LogQuery query) {
    var name = name(jobId, attempt);
    if (!sink.exists(name)) {
      return Optional.empty();
    }
    BufferedReader reader;
    try {
      reader =
          new BufferedReader(
              new InputStreamReader(new GZIPInputStream(sink.open(name)), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the log archive " + name, e);
    }
    return Optional.of(new ArchivedLines(reader, query));
  }

  private static final class ArchivedLines implements LogStream {
    private final BufferedReader reader;
    private final LogQuery query;

    ArchivedLines(BufferedReader reader, LogQuery query) {
      this.reader = reader;
      this.query = query;
    }

    @Override
    public Optional<LogLine> next() {
      try {
        for (var raw = reader.readLine(); raw != null; raw = reader.readLine()) {
          var entry = parse(raw);
          if (selected(entry)) {
            return Optional.of(new LogLine(entry.replica(), entry.at(), entry.text()));
          }
        }
        return Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read a log archive", e);
      }
    }

    private boolean selected(Entry entry) {
      if (entry.replica().equals(OWN_REPLICA)) {
        return true;
      }
      if (query.replica() != null && !query.replica().equals(entry.replica())) {
        return false;
      }
      return query.since() == null || entry.at() == null || !entry.at().isBefore(query.since());
    }

    private static Entry parse(String raw) {
      try {
        return JSON.readValue(raw, Entry.class);
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException("a log archive line is not JSON", e);
      }
    }

    @Override
    public void close() {
      try {
        reader.close();
      } catch (IOException e) {
        // Nothing was written; nothing is lost.
      }
    }
  }
}
