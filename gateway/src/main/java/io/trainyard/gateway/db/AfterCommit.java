package io.trainyard.gateway.db;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * Work that must happen only once a change is durable (a metric, a log line, a wake-up), run after
 * the commit of the transaction that wrote it. Every such hook goes through {@link #run} rather
 * than Jdbi's {@code Handle.afterCommit} (ArchitectureTest keeps it so): a {@link GroupCommit} runs
 * many callers' changes in one transaction, each under a savepoint, and Jdbi keeps the hooks of a
 * change rolled back to its savepoint, which would then count or log a job that was never stored.
 * Inside a group commit's item the hooks wait with the item and are dropped with it.
 */
public final class AfterCommit {
  /** The hooks of the group commit item running on this thread, and the handle it runs in. */
  private static final ThreadLocal<Item> ITEM = new ThreadLocal<>();

  private record Item(Handle handle, List<Runnable> hooks) {}

  private AfterCommit() {}

  /** Runs {@code hook} once {@code h}'s transaction commits, and only if this change is kept. */
  public static void run(Handle h, Runnable hook) {
    var item = ITEM.get();
    if (item != null && item.handle() == h) {
      item.hooks().add(hook);
    } else {
      h.afterCommit(hook);
    }
  }

  /**
   * Runs {@code change} in {@code h} holding back the hooks it registers: they join {@code h}'s
   * transaction if {@code change} returns, and are dropped if it throws (its savepoint is rolled
   * back).
   */
  static <T> T holdingHooks(Handle h, Supplier<T> change) {
    var outer = ITEM.get();
    var item = new Item(h, new ArrayList<>());
    ITEM.set(item);
    T result;
    try {
      result = change.get();
    } finally {
      if (outer == null) {
        ITEM.remove();
      } else {
        ITEM.set(outer);
      }
    }
    item.hooks().forEach(hook -> run(h, hook));
    return result;
  }
}
