package io.trainyard.gateway.backends;

import io.opentelemetry.context.Context;
import io.trainyard.spi.BackendException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.MDC;

/**
 * Calls to backends that answer within a deadline or not at all, so that a backend whose calls hang
 * (a cloud or cluster API that accepts the connection and never answers) holds up no caller longer
 * than the deadline — not until its client's own timeouts and retries give up.
 *
 * <p>A call runs on a thread of this pool; a caller that stops waiting leaves it to finish there,
 * and a late answer goes to the caller's {@code late} handler. At most {@code maxUnanswered} calls
 * per backend are left waiting: beyond that a call is refused at once without reaching the backend,
 * so a hung backend cannot take threads without bound. The caller's trace context and log MDC go
 * with the call. Thread-safe.
 */
public final class BoundedCalls {
  /** The call did not answer in time, or too many before it to the same backend still have not. */
  public static final class NoAnswer extends RuntimeException {
    public NoAnswer(String message) {
      super(message, null, false, false);
    }
  }

  /** A call under way. */
  public final class Pending<T> {
    private final String backendId;
    private final Future<T> answer;
    private final BiConsumer<T, Throwable> late;

    private Pending(String backendId, Future<T> answer, BiConsumer<T, Throwable> late) {
      this.backendId = backendId;
      this.answer = answer;
      this.late = late;
    }

    /**
     * The answer, waiting until {@code deadlineNanos} ({@link System#nanoTime()}) at the latest.
     * The call's own exceptions are thrown as they are.
     *
     * @throws NoAnswer past the deadline (the call goes on; its answer goes to {@code late})
     */
    public T await(long deadlineNanos, Duration timeout) {
      try {
        var left = Math.max(0, deadlineNanos - System.nanoTime());
        return answer.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        var waiting = unanswered(backendId);
        waiting.incrementAndGet();
        pool.execute(() -> awaitLate(waiting));
        throw new NoAnswer("no answer within " + timeout.toMillis() + " ms");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        answer.cancel(true);
        Thread.currentThread().interrupt();
        throw new BackendException.Retryable("interrupted while waiting for " + backendId, null);
      }
    }

    private void awaitLate(AtomicInteger waiting) {
      try {
        T value = null;
        Throwable failure = null;
        try {
          value = answer.get();
        } catch (ExecutionException e) {
          failure = e.getCause();
        }
        if (late != null) {
          late.accept(value, failure);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        waiting.decrementAndGet();
      }
    }
  }

  private final int maxUnanswered;
  private final Map<String, AtomicInteger> unanswered = new ConcurrentHashMap<>();
  private final ExecutorService pool;

  /**
   * @param name the pool's thread name
   * @param maxUnanswered calls per backend that may be left waiting before more are refused
   */
  public BoundedCalls(String name, int maxUnanswered) {
    this.maxUnanswered = maxUnanswered;
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              var t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts {@code call} on the pool.
   *
   * @param late given a late answer (value or failure) of a call its caller stopped waiting for;
   *     null to drop it
   * @throws NoAnswer at once when {@code maxUnanswered} earlier calls to the backend still wait
   */
  public <T> Pending<T> start(String backendId, Callable<T> call, BiConsumer<T, Throwable> late) {
    var waiting = unanswered(backendId);
    if (waiting.get() >= maxUnanswered) {
      throw new NoAnswer(
          waiting.get() + " earlier calls to " + backendId + " have not answered yet");
    }
    var mdc = MDC.getCopyOfContextMap();
    Callable<T> withMdc =
        () -> {
          if (mdc != null) {
            MDC.setContextMap(mdc);
          }
          try {
            return call.call();
          } finally {
            MDC.clear();
          }
        };
    return new Pending<>(backendId, pool.submit(Context.current().wrap(withMdc)), late);
  }

  private AtomicInteger unanswered(String backendId) {
    return unanswered.computeIfAbsent(backendId, id -> new AtomicInteger());
  }
}
