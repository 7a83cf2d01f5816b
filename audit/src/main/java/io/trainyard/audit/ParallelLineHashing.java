package io.trainyard.audit;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Reads a JSON Lines file in large chunks and checks its lines on all cores, handing the parsed
 * lines over in their original order. Checking a line (canonical form, SHA-256 of the event) is
 * most of a verification's cost and lines are independent; the file's own SHA-256 and chaining the
 * lines are sequential, so they stay on the calling thread, which does them while the workers check
 * the next chunk. Lines are checked where they lie in the chunk, without being copied out.
 *
 * <p>Lines end at {@code \n}; a last line without one counts too, an empty line is a record (that
 * cannot be read). Threads are daemons and end with {@link #close()}. Not thread-safe.
 */
final class ParallelLineHashing implements AutoCloseable {
  static final int CHUNK = 8 << 20;

  private final int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
  private final ExecutorService pool =
      Executors.newFixedThreadPool(
          threads,
          runnable -> {
            var thread = new Thread(runnable, "audit-verify");
            thread.setDaemon(true);
            return thread;
          });
  private final ExportLineParser parser = new ExportLineParser();
  private final int chunkSize;

  ParallelLineHashing() {
    this(CHUNK);
  }

  /** With a chunk size of its own, so that tests can put lines across chunk boundaries. */
  ParallelLineHashing(int chunkSize) {
    this.chunkSize = chunkSize;
  }

  /**
   * Reads every line of {@code in}, feeding every byte read to {@code fileHash}, and hands each
   * slice of parsed lines to {@code sink} in order; returns the number of lines.
   */
  long run(InputStream in, MessageDigest fileHash, Consumer<List<ChainLine>> sink)
      throws IOException {
    // Two buffers are enough: a chunk's buffer is reused only after its lines were drained.
    byte[][] buffers = {new byte[chunkSize], new byte[chunkSize]};
    int current = 0;
    int carried = 0; // bytes of an unfinished line at the start of the current buffer
    long count = 0;
    List<Future<List<ChainLine>>> inFlight = List.of();
    boolean ended = false;
    while (!ended) {
      byte[] buffer = buffers[current];
      int read = in.readNBytes(buffer, carried, buffer.length - carried);
      fileHash.update(buffer, carried, read);
      int filled = carried + read;
      ended = filled < buffer.length;
      int complete = ended ? filled : lastLineEnd(buffer, filled);
      if (complete < 0) {
        // One line longer than the buffer: grow it and read on.
        buffers[current] = Arrays.copyOf(buffer, buffer.length * 2);
        carried = filled;
        continue;
      }
      var next = submit(buffer, slices(buffer, complete));
      count += drain(inFlight, sink);
      inFlight = next;
      int other = 1 - current;
      if (!ended) {
        carried = filled - complete;
        if (buffers[other].length < Math.max(chunkSize, carried * 2)) {
          buffers[other] = new byte[Math.max(chunkSize, carried * 2)];
        }
        System.arraycopy(buffer, complete, buffers[other], 0, carried);
      }
      current = other;
    }
    return count + drain(inFlight, sink);
  }

  /** The offset after the last line feed in {@code buffer[0, filled)}, or -1 if there is none. */
  private static int lastLineEnd(byte[] buffer, int filled) {
    for (int i = filled - 1; i >= 0; i--) {
      if (buffer[i] == '\n') {
        return i + 1;
      }
    }
    return -1;
  }

  /** Where the slices of whole lines start and end: one per thread, cut after line feeds. */
  private int[] slices(byte[] buffer, int complete) {
    var bounds = new int[threads + 1];
    int count = 1;
    int target = Math.max(1, complete / threads);
    for (int t = 1; t < threads; t++) {
      int cut = Math.max(bounds[count - 1], t * target);
      while (cut < complete && buffer[cut - 1] != '\n') {
        cut++;
      }
      if (cut > bounds[count - 1] && cut < complete) {
        bounds[count++] = cut;
      }
    }
    bounds[count++] = complete;
    return Arrays.copyOf(bounds, count);
  }

  private List<Future<List<ChainLine>>> submit(byte[] buffer, int[] bounds) {
    var futures = new ArrayList<Future<List<ChainLine>>>(threads);
    for (int s = 0; s + 1 < bounds.length; s++) {
      int from = bounds[s];
      int to = bounds[s + 1];
      if (from < to) {
        futures.add(pool.submit(() -> parse(buffer, from, to)));
      }
    }
    return futures;
  }

  private List<ChainLine> parse(byte[] buffer, int from, int to) {
    var lines = new ArrayList<ChainLine>((to - from) / 256 + 1);
    parser.parseLines(buffer, from, to, lines);
    return lines;
  }

  /** Hands the slices' lines to {@code sink} in order; returns how many there were. */
  private static long drain(List<Future<List<ChainLine>>> futures, Consumer<List<ChainLine>> sink) {
    long count = 0;
    for (var future : futures) {
      try {
        var lines = future.get();
        count += lines.size();
        sink.accept(lines);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while verifying", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("hashing a line failed", e.getCause());
      }
    }
    return count;
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
