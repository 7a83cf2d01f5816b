package io.trainyard.audit;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link BlobSink} opened in the background, so that a gateway serves without waiting for it:
 * opening a {@link JcloudsBlobSink} builds jclouds' context (a Guice injector, about 0.3 s of a
 * start on two cores) and asks the store whether the container exists (a round trip to a cloud).
 * The open begins {@link #OPEN_AFTER} after the sink is made, once the gateway serves, so that its
 * CPU does not slow the start either; a use before then opens it at once. The first use waits for
 * the open to end. An open that failed is reported to {@code onFailure} as it happens and fails the
 * uses that waited for it; the next use opens again, so a store that was down at start is used once
 * it is back. Thread-safe.
 */
public final class BackgroundBlobSink implements BlobSink {
  /** How long after it is made a sink not used yet begins to open. */
  public static final Duration OPEN_AFTER = Duration.ofSeconds(10);

  private final Supplier<BlobSink> opener;
  private final Consumer<AuditException> onFailure;
  private final String description;

  /** Counted down by the first use: the first open waits for it, or for its delay. */
  private final CountDownLatch used = new CountDownLatch(1);

  private CompletableFuture<BlobSink> opening; // guarded by this
  private boolean closed; // guarded by this

  private BackgroundBlobSink(
      Supplier<BlobSink> opener, Consumer<AuditException> onFailure, String description) {
    this.opener = opener;
    this.onFailure = onFailure;
    this.description = description;
  }

  /**
   * Opens {@code config} with {@link JcloudsBlobSink#open} on a daemon thread, {@link #OPEN_AFTER}
   * from now or at the first use.
   */
  public static BackgroundBlobSink open(BlobSinkConfig config, Consumer<AuditException> onFailure) {
    return open(() -> JcloudsBlobSink.open(config), onFailure, config.toString(), OPEN_AFTER);
  }

  /**
   * Runs {@code opener} on a daemon thread {@code after} from now, or at the first use if that
   * comes sooner; {@code description} names the sink in messages.
   */
  public static BackgroundBlobSink open(
      Supplier<BlobSink> opener,
      Consumer<AuditException> onFailure,
      String description,
      Duration after) {
    Objects.requireNonNull(after, "after");
    var sink =
        new BackgroundBlobSink(
            Objects.requireNonNull(opener, "opener"),
            Objects.requireNonNull(onFailure, "onFailure"),
            description);
    synchronized (sink) {
      sink.opening = sink.start(after);
    }
    return sink;
  }

  /** Opens on a thread of its own, once used or {@code after} has passed. */
  private CompletableFuture<BlobSink> start(Duration after) {
    var future = new CompletableFuture<BlobSink>();
    var thread =
        new Thread(
            () -> {
              try {
                if (!after.isZero()) {
                  used.await(after.toMillis(), TimeUnit.MILLISECONDS);
                }
                if (isClosed()) {
                  future.completeExceptionally(
                      new AuditException(
                          AuditErrorCode.SINK_UNAVAILABLE, description + " is closed"));
                  return;
                }
                future.complete(opener.get());
              } catch (InterruptedException e) {
                future.completeExceptionally(
                    new AuditException(
                        AuditErrorCode.SINK_UNAVAILABLE, description + " was not opened", e));
              } catch (AuditException e) {
                onFailure.accept(e);
                future.completeExceptionally(e);
              } catch (RuntimeException e) {
                var failure =
                    new AuditException(
                        AuditErrorCode.SINK_UNAVAILABLE, "cannot open " + description, e);
                onFailure.accept(failure);
                future.completeExceptionally(failure);
              }
            },
            "blob-sink-open");
    thread.setDaemon(true);
    thread.start();
    return future;
  }

  /** The open sink, waiting for the open; after a failed one, opens again. */
  private BlobSink sink() {
    used.countDown();
    CompletableFuture<BlobSink> current;
    synchronized (this) {
      if (closed) {
        throw new AuditException(AuditErrorCode.SINK_UNAVAILABLE, description + " is closed");
      }
      current = opening;
    }
    try {
      return current.join();
    } catch (CompletionException e) {
      synchronized (this) {
        if (opening == current && !closed) {
          opening =
              start(Duration.ZERO); // for the next use; this one fails with what the last open said
        }
      }
      throw e.getCause() instanceof AuditException a
          ? a
          : new AuditException(
              AuditErrorCode.SINK_UNAVAILABLE, "cannot open " + description, e.getCause());
    }
  }

  @Override
  public void put(String name, byte[] content) {
    sink().put(name, content);
  }

  @Override
  public void put(String name, Path file) {
    sink().put(name, file);
  }

  @Override
  public void put(String name, InputStream content, long length) {
    sink().put(name, content, length);
  }

  @Override
  public InputStream open(String name) {
    return sink().open(name);
  }

  @Override
  public boolean exists(String name) {
    return sink().exists(name);
  }

  @Override
  public List<String> list(String prefix) {
    return sink().list(prefix);
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Closes the sink once its open ends, if it succeeds (one not begun yet is never opened); uses
   * after this fail.
   */
  @Override
  public void close() {
    CompletableFuture<BlobSink> last;
    synchronized (this) {
      closed = true;
      last = opening;
    }
    used.countDown();
    last.thenAccept(BlobSink::close);
  }

  @Override
  public String toString() {
    return description;
  }
}
