package io.trainyard.gateway.pricing;

import com.codahale.metrics.health.HealthCheck;
import io.dropwizard.lifecycle.Managed;
import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.refresh.CatalogRefresh;
import io.trainyard.cost.refresh.PriceRefresher;
import io.trainyard.cost.refresh.RefreshReport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the price catalog from the providers' price APIs at start and then at a fixed interval,
 * on one thread. A failed refresh keeps the last good prices (per refresher) and turns the {@code
 * prices} health check unhealthy until a refresh succeeds.
 */
public final class PriceRefreshSchedule extends HealthCheck implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(PriceRefreshSchedule.class);

  private final CatalogPriceBook book;
  private final List<PriceRefresher> refreshers;
  private final Duration every;
  private final Clock clock;
  private final AtomicReference<RefreshReport> last = new AtomicReference<>();
  private ScheduledExecutorService executor;

  public PriceRefreshSchedule(
      CatalogPriceBook book, List<PriceRefresher> refreshers, Duration every, Clock clock) {
    this.book = book;
    this.refreshers = List.copyOf(refreshers);
    this.every = every;
    this.clock = clock;
  }

  /** Refreshes once now; what the schedule runs. */
  public RefreshReport refreshNow() {
    var report = CatalogRefresh.refreshInto(book, clock, refreshers);
    last.set(report);
    if (report.healthy()) {
      LOG.info("prices refreshed: {}", report.summary());
    } else {
      LOG.warn("price refresh failed, keeping the last good prices: {}", report.summary());
    }
    return report;
  }

  @Override
  public void start() {
    if (refreshers.isEmpty()) {
      return;
    }
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var t = new Thread(r, "price-refresh");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(this::refreshQuietly, 0, every.toSeconds(), TimeUnit.SECONDS);
  }

  private void refreshQuietly() {
    try {
      refreshNow();
    } catch (RuntimeException e) {
      // The schedule must outlive a bug in one run; the next run tries again.
      LOG.error("price refresh crashed", e);
    }
  }

  @Override
  public void stop() throws InterruptedException {
    if (executor != null) {
      executor.shutdownNow();
      executor.awaitTermination(10, TimeUnit.SECONDS);
    }
    refreshers.forEach(PriceRefresher::close);
  }

  @Override
  protected Result check() {
    var asOf = "prices as of " + book.asOf();
    if (refreshers.isEmpty()) {
      return Result.healthy(asOf + " (embedded catalog; no refresher configured)");
    }
    var report = last.get();
    if (report == null) {
      return Result.healthy(asOf + " (first refresh pending)");
    }
    return report.healthy()
        ? Result.healthy(asOf + ": " + report.summary())
        : Result.unhealthy(asOf + ", last refresh failed: " + report.summary());
  }
}
