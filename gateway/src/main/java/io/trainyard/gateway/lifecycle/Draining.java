package io.trainyard.gateway.lifecycle;

import io.dropwizard.lifecycle.ServerLifecycleListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a replica stops (a Kubernetes pod is sent SIGTERM, then SIGKILL after its grace period).
 *
 * <p>On SIGTERM the server is stopped, and the process then exits 0 — or 1 when the stop failed —
 * instead of the JVM's 143. The moment a stop begins (SIGTERM, or any other stop of the server),
 * the drain steps run: open log follows end with a line saying where to resume ({@link #first},
 * before the graceful stop), and, each on its own thread ({@link #then}), the reconciler stops and
 * hands its job leases and queue claim over to the other replicas. Meanwhile Jetty stops accepting
 * connections and lets the requests in flight finish, for up to {@code server.shutdownGracePeriod};
 * then the managed objects stop (watches, backends, the audit trail, the database pool), each
 * waiting for its drain step if one is still running. Thread-safe.
 */
public final class Draining implements LifeCycle.Listener, ServerLifecycleListener {
  private static final Logger LOG = LoggerFactory.getLogger(Draining.class);

  /** Something to do as soon as a stop begins. */
  @FunctionalInterface
  public interface Step {
    void run() throws Exception;
  }

  private record Named(String what, Step step) {}

  private final List<Named> first = new ArrayList<>();
  private final List<Named> steps = new ArrayList<>();
  private final AtomicBoolean begun = new AtomicBoolean();
  private final AtomicBoolean signalled = new AtomicBoolean();

  /**
   * Adds a step done before Jetty's graceful stop begins, which closes connections idle for a
   * second: keep it short (before the server starts).
   */
  public synchronized Draining first(String what, Step step) {
    first.add(new Named(what, step));
    return this;
  }

  /** Adds a step done alongside Jetty's graceful stop (before the server starts). */
  public synchronized Draining then(String what, Step step) {
    steps.add(new Named(what, step));
    return this;
  }

  /** Whether a stop has begun. */
  public boolean begun() {
    return begun.get();
  }

  @Override
  public void lifeCycleStopping(LifeCycle event) {
    drain();
  }

  /**
   * Does the {@link #first} steps, then starts every other step on its own thread and returns; only
   * the first call does anything.
   */
  public void drain() {
    if (!begun.compareAndSet(false, true)) {
      return;
    }
    List<Named> before;
    List<Named> toRun;
    synchronized (this) {
      before = List.copyOf(first);
      toRun = List.copyOf(steps);
    }
    for (var named : before) {
      try {
        named.step().run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.warn("stopping: could not {}", named.what(), e);
      }
    }
    for (var named : toRun) {
      var thread =
          new Thread(
              () -> {
                try {
                  named.step().run();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (Exception e) {
                  LOG.warn("stopping: could not {}", named.what(), e);
                }
              },
              "drain-" + named.what().replace(' ', '-'));
      thread.start();
    }
  }

  @Override
  public void serverStarted(Server server) {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> onTerm(server));
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // The JVM's own handler stays: Jetty still stops gracefully, the exit code is then 143.
      LOG.warn("no SIGTERM handler of our own ({}); the default shutdown applies", e.toString());
    }
  }

  private void onTerm(Server server) {
    if (!signalled.compareAndSet(false, true)) {
      LOG.info("SIGTERM again: already stopping");
      return;
    }
    var stopper =
        new Thread(
            () -> {
              LOG.info(
                  "SIGTERM: no new requests; finishing those in flight for up to {} ms",
                  server.getStopTimeout());
              int code = 0;
              try {
                server.stop();
                LOG.info("stopped");
              } catch (Exception e) {
                LOG.error("stopping failed", e);
                code = 1;
              }
              System.exit(code);
            },
            "sigterm-stop");
    stopper.start();
  }
}
