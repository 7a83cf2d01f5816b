package io.trainyard.bench.load;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.function.LongFunction;

/**
 * A closed-loop load driver: {@code clients} threads each send a request, wait for its answer and
 * send the next, through one shared {@link HttpClient} (HTTP/1.1, keep-alive connections, as a
 * dashboard or CLI keeps them). Requests answered during the warm-up are not counted; the rate is
 * the answers within the measured window over its length, the latencies those answers' times.
 *
 * <p>Each request is made by {@code next} from a sequence number unique across clients, so a
 * scenario can send distinct bodies (job names, idempotency keys) without coordinating threads.
 */
public final class LoadDriver {
  private final HttpClient http;
  private final long meteredPid;

  public LoadDriver(HttpClient http) {
    this(http, -1);
  }

  private LoadDriver(HttpClient http, long meteredPid) {
    this.http = http;
    this.meteredPid = meteredPid;
  }

  /**
   * This driver, also reporting the CPU time process {@code pid} (the gateway) and the driver's own
   * process used per answered request within each measured window ({@link ProcessCpu}): what a
   * request costs each side, which a ratio of two rates on a shared machine mixes together.
   */
  public LoadDriver metering(long pid) {
    return new LoadDriver(http, pid);
  }

  /** A driver with a fresh HTTP/1.1 client. */
  public static LoadDriver http11() {
    return new LoadDriver(
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build());
  }

  /**
   * Runs {@code clients} closed-loop clients for {@code warmUp} then {@code measure}.
   *
   * @param ok which status codes count as answered; any other is an error (counted, not timed)
   */
  public Sample run(
      String name,
      int clients,
      Duration warmUp,
      Duration measure,
      LongFunction<HttpRequest> next,
      IntPredicate ok) {
    var sequence = new AtomicLong();
    var errors = new AtomicLong();
    var firstError = new String[1];
    var start = System.nanoTime();
    var from = start + warmUp.toNanos();
    var until = from + measure.toNanos();
    var done = new CountDownLatch(clients);
    var perClient = new ArrayList<long[]>();
    var counts = new int[clients];
    var threads = new ArrayList<Thread>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      var latencies = new long[1024];
      perClient.add(latencies);
      var thread =
          new Thread(
              () -> {
                long[] mine = perClient.get(client);
                int n = 0;
                try {
                  while (true) {
                    var sent = System.nanoTime();
                    if (sent >= until) {
                      return;
                    }
                    var request = next.apply(sequence.getAndIncrement());
                    int status;
                    try {
                      status =
                          http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                    } catch (IOException e) {
                      status = -1;
                      synchronized (firstError) {
                        if (firstError[0] == null) {
                          firstError[0] = e.toString();
                        }
                      }
                    }
                    var answered = System.nanoTime();
                    if (answered < from || answered >= until) {
                      continue;
                    }
                    if (!ok.test(status)) {
                      errors.incrementAndGet();
                      synchronized (firstError) {
                        if (firstError[0] == null) {
                          firstError[0] = "status " + status + " for " + request.uri();
                        }
                      }
                      continue;
                    }
                    if (n == mine.length) {
                      mine = Arrays.copyOf(mine, n * 2);
                      synchronized (perClient) {
                        perClient.set(client, mine);
                      }
                    }
                    mine[n++] = answered - sent;
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  counts[client] = n;
                  done.countDown();
                }
              },
              "load-" + name + "-" + c);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
    long[] serverCpu = {-1, -1};
    long[] driverCpu = {-1, -1};
    try {
      if (meteredPid > 0) {
        sleepUntil(from);
        serverCpu[0] = ProcessCpu.nanos(meteredPid);
        driverCpu[0] = ProcessCpu.ownNanos();
        sleepUntil(until);
        serverCpu[1] = ProcessCpu.nanos(meteredPid);
        driverCpu[1] = ProcessCpu.ownNanos();
      }
      done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    int total = 0;
    for (int n : counts) {
      total += n;
    }
    var all = new long[total];
    int at = 0;
    synchronized (perClient) {
      for (int c = 0; c < clients; c++) {
        System.arraycopy(perClient.get(c), 0, all, at, counts[c]);
        at += counts[c];
      }
    }
    Arrays.sort(all);
    return new Sample(
        name,
        clients,
        total,
        errors.get(),
        total / (measure.toNanos() / 1e9),
        percentile(all, 0.50),
        percentile(all, 0.99),
        LoadAverage.now(),
        microsPerRequest(serverCpu, total),
        microsPerRequest(driverCpu, total),
        firstError[0]);
  }

  /** CPU between the two readings per answered request, in µs; NaN where either is missing. */
  private static double microsPerRequest(long[] readings, int answered) {
    if (readings[0] < 0 || readings[1] < 0 || answered == 0) {
      return Double.NaN;
    }
    return (readings[1] - readings[0]) / 1e3 / answered;
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static Duration percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Duration.ZERO;
    }
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return Duration.ofNanos(sorted[Math.max(0, Math.min(sorted.length - 1, index))]);
  }

  /** The median of {@code values} (the mean of the middle two for an even count). */
  public static double median(List<Double> values) {
    var sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
