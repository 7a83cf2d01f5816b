package io.trainyard.backend.azureml;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * A job's output logs from Blob storage: {@code std_log.txt} (one process) or {@code
 * std_log_process_<rank>.txt} (distributed), each labelled with our replica name (the node of the
 * rank). Each file is read from where the last read stopped (a ranged Get Blob), so a followed
 * stream sees lines as they are written; it asks again every poll interval until the job has ended,
 * then reads once more so nothing written at the end is lost. Files carry no timestamps: lines have
 * none, and {@code since} cannot filter them. One reader; {@link #close()} may come from another
 * thread and wakes a waiting {@link #next()}.
 */
final class AzureMlLogStream implements LogStream {
  private static final Pattern LOG_FILE = Pattern.compile("std_log(?:_process_(\\d+))?\\.txt");

  private final AzureMlBlobLogs blobs;
  private final String prefix;
  private final AzureMlTopology nodes;
  private final int processesPerNode;
  private final String replica;
  private final boolean follow;
  private final BooleanSupplier ended;
  private final Duration pollInterval;
  private final ArrayDeque<LogLine> buffer = new ArrayDeque<>();
  private final Map<String, Long> offsets = new HashMap<>();
  private final Map<String, ByteArrayOutputStream> partial = new HashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private boolean exhausted;

  /**
   * @param replica {@code worker-0} to read one replica, null for all
   * @param ended whether the job has ended, asked before each read while following
   */
  AzureMlLogStream(
      AzureMlBlobLogs blobs,
      String jobName,
      List<String> nodes,
      int processesPerNode,
      String replica,
      boolean follow,
      BooleanSupplier ended,
      Duration pollInterval) {
    this.blobs = blobs;
    this.prefix = AzureMlBlobLogs.prefix(jobName);
    this.nodes = new AzureMlTopology(nodes, null);
    this.processesPerNode = Math.max(1, processesPerNode);
    this.replica = replica;
    this.follow = follow;
    this.ended = ended;
    this.pollInterval = pollInterval;
  }

  @Override
  public Optional<LogLine> next() throws InterruptedException {
    while (closed.getCount() > 0) {
      if (!buffer.isEmpty()) {
        return Optional.of(buffer.poll());
      }
      if (exhausted) {
        return Optional.empty();
      }
      // Asked before reading, so lines written just before the end are still read once.
      var last = !follow || ended.getAsBoolean();
      read(last);
      if (buffer.isEmpty() && last) {
        exhausted = true;
      } else if (buffer.isEmpty() && closed.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS)) {
        break;
      }
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    closed.countDown();
  }

  /** The replica that printed a log file, or null when the file is not a process log. */
  String replicaOf(String fileName) {
    var m = LOG_FILE.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    var rank = m.group(1) == null ? 0 : Integer.parseInt(m.group(1));
    return nodes.replicaOfNode(rank / processesPerNode);
  }

  private void read(boolean last) {
    var files =
        blobs.list(prefix).stream()
            .sorted(Comparator.comparing(AzureMlBlobLogs.Blob::name))
            .toList();
    for (var blob : files) {
      var file = blob.name().substring(prefix.length());
      var who = replicaOf(file);
      if (who == null || (replica != null && !replica.equals(who))) {
        continue;
      }
      var offset = offsets.getOrDefault(blob.name(), 0L);
      if (blob.size() > offset) {
        var bytes = blobs.read(blob.name(), offset);
        offsets.put(blob.name(), offset + bytes.length);
        take(blob.name(), who, bytes);
      }
      if (last) {
        flush(blob.name(), who);
      }
    }
  }

  // Lines are cut at '\n'; a line still being written waits for its end (or the job's).
  private void take(String blob, String who, byte[] bytes) {
    var pending = partial.computeIfAbsent(blob, b -> new ByteArrayOutputStream());
    for (var b : bytes) {
      if (b == '\n') {
        emit(who, pending);
      } else {
        pending.write(b);
      }
    }
  }

  private void flush(String blob, String who) {
    var pending = partial.get(blob);
    if (pending != null && pending.size() > 0) {
      emit(who, pending);
    }
  }

  private void emit(String who, ByteArrayOutputStream pending) {
    var text = pending.toString(StandardCharsets.UTF_8);
    pending.reset();
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    buffer.add(new LogLine(who, null, text));
  }
}
