package io.trainyard.audit;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A {@link BlobSink} opened in the background, so that a gateway serves without waiting for it:
 * opening a {@link JcloudsBlobSink} builds jclouds' context (a Guice injector, about 0.3 s of a
 * start on two cores) and asks the store whether the container exists (a round trip to a cloud).
 * The first use waits for the open to end. An open that failed is reported to {@code onFailure} as
 * it happens and fails the uses that waited for it; the next use opens again, so a store that was
 * down at start is used once it is back. Thread-safe.
 */
public final class BackgroundBlobSink implements BlobSink {
  private final Supplier<BlobSink> opener;
  private final Consumer<AuditException> onFailure;
  private final String description;
  private CompletableFuture<BlobSink> opening; // guarded by this
  private boolean closed; // guarded by this

  private BackgroundBlobSink(
      Supplier<BlobSink> opener, Consumer<AuditException> onFailure, String description) {
    this.opener = opener;
    this.onFailure = onFailure;
    this.description = description;
  }

  /** Starts opening {@code config} with {@link JcloudsBlobSink#open} on a daemon thread. */
  public static BackgroundBlobSink open(BlobSinkConfig config, Consumer<AuditException> onFailure) {
    return open(() -> JcloudsBlobSink.open(config), onFailure, config.toString());
  }

  /** Starts {@code opener} on a daemon thread; {@code description} names the sink in messages. */
  public static BackgroundBlobSink open(
      Supplier<BlobSink> opener, Consumer<AuditException> onFailure, String description) {
    var sink =
        new BackgroundBlobSink(
            Objects.requireNonNull(opener, "opener"),
            Objects.requireNonNull(onFailure, "onFailure"),
            description);
    synchronized (sink) {
      sink.opening = sink.start();
    }
    return sink;
  }

  private CompletableFuture<BlobSink> start() {
    var future = new CompletableFuture<BlobSink>();
    var thread =
        new Thread(
            () -> {
              try {
                future.complete(opener.get());
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
          opening = start(); // for the next use; this one fails with what the last open said
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

  /** Closes the sink once its open ends, if it succeeds; uses after this fail. */
  @Override
  public void close() {
    CompletableFuture<BlobSink> last;
    synchronized (this) {
      closed = true;
      last = opening;
    }
    last.thenAccept(BlobSink::close);
  }

  @Override
  public String toString() {
    return description;
  }
}
