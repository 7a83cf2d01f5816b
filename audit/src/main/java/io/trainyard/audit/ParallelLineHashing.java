package io.trainyard.audit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Reads lines and hashes them on all cores while the next batch is being read, then hands the
 * parsed batches over in their original order. Hashing a line (parse, canonical form, SHA-256) is
 * nearly all of a verification's cost and lines are independent; chaining them is not, so that
 * stays on the calling thread. Threads are daemons and end with {@link #close()}.
 */
final class ParallelLineHashing implements AutoCloseable {
  private static final int BATCH = 4096;

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

  /**
   * Reads every line, hands each batch of parsed lines to {@code sink} in order; returns the count.
   */
  long run(ByteLines reader, Consumer<List<ChainLine>> sink) throws IOException {
    long count = 0;
    List<Future<List<ChainLine>>> inFlight = List.of();
    while (true) {
      var batch = readBatch(reader);
      count += batch.size();
      var next = submit(batch);
      drain(inFlight, sink);
      inFlight = next;
      if (batch.isEmpty()) {
        return count;
      }
    }
  }

  private List<byte[]> readBatch(ByteLines reader) throws IOException {
    var batch = new ArrayList<byte[]>(BATCH);
    for (byte[] line; batch.size() < BATCH && (line = reader.next()) != null; ) {
      batch.add(line);
    }
    return batch;
  }

  private List<Future<List<ChainLine>>> submit(List<byte[]> batch) {
    var futures = new ArrayList<Future<List<ChainLine>>>(threads);
    int size = (batch.size() + threads - 1) / threads;
    for (int from = 0; from < batch.size(); from += size) {
      var slice = batch.subList(from, Math.min(batch.size(), from + size));
      futures.add(pool.submit(() -> slice.stream().map(parser::parse).toList()));
    }
    return futures;
  }

  private static void drain(List<Future<List<ChainLine>>> futures, Consumer<List<ChainLine>> sink) {
    for (var future : futures) {
      try {
        sink.accept(future.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while verifying", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("hashing a line failed", e.getCause());
      }
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
