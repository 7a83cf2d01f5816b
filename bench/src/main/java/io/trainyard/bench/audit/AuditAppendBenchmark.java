package io.trainyard.bench.audit;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditChainVerifier;
import io.trainyard.gateway.audit.AuditAppender;
import io.trainyard.gateway.audit.AuditChainHead;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditStore;
import io.trainyard.gateway.db.DatabaseMigrator;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * Audit appends per second with the chain, on PostgreSQL, for both ordering ways of DESIGN.md
 * "Audit" (docs/benchmarks.md, "Audit appends"):
 *
 * <ul>
 *   <li>{@code head}: {@link AuditChainHead}, the shipped way: each writer transaction locks the
 *       chain-head row last and chains its own events.
 *   <li>{@code sealer}: {@link OutboxSealer}: writers insert unchained rows; one sealer thread
 *       chains them in batches.
 * </ul>
 *
 * <p>Each run gets a fresh database migrated by the gateway's changelog, several writer threads
 * committing {@code batch} events per transaction for a warm-up and then a measured window, and
 * ends by reading the whole chain back and verifying it. By default a throw-away PostgreSQL 15 is
 * started with its durable defaults, because commit latency is what the two ways differ in.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar io.trainyard.bench.audit.AuditAppendBenchmark \
 *       [--threads 8] [--batches 1,10,100] [--seconds 10] [--durable true|false] [--ways head,sealer]
 * </pre>
 */
public final class AuditAppendBenchmark {
  private static final Duration WARMUP = Duration.ofSeconds(3);

  private AuditAppendBenchmark() {}

  public static void main(String[] args) throws Exception {
    var options = Options.parse(args);
    // Liquibase and the pool narrate at DEBUG without a logback.xml; only the numbers matter here.
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("ROOT"))
        .setLevel(ch.qos.logback.classic.Level.WARN);
    System.out.printf(
        "raw SHA-256 on this machine: %,.0f MB/s, %,.0f hashes/s of 400 bytes%n",
        Sha256Rate.megabytesPerSecond(), Sha256Rate.hashesPerSecond(400));
    try (var pg = ThrowawayPostgres.start(Path.of(options.pgBin()), options.durable())) {
      System.out.printf(
          "PostgreSQL 15, durable=%s, %d writer threads, %d s measured after %d s warm-up%n",
          options.durable(), options.threads(), options.seconds(), WARMUP.toSeconds());
      int run = 0;
      for (var way : options.ways()) {
        for (int batch : options.batches()) {
          var result = runOnce(pg, "bench_" + (++run), way, batch, options);
          System.out.println(result);
        }
      }
    }
  }

  private record Result(
      String way, int batch, int threads, double eventsPerSecond, long verified, String chain) {
    @Override
    public String toString() {
      return String.format(
          "way=%-6s batch=%-4d threads=%d  %,10.0f events/s  (chain of %,d events verified: %s)",
          way, batch, threads, eventsPerSecond, verified, chain);
    }
  }

  private static Result runOnce(
      ThrowawayPostgres pg, String database, String way, int batch, Options options)
      throws Exception {
    try (var c = DriverManager.getConnection(pg.url(), "postgres", "");
        var s = c.createStatement()) {
      s.execute("CREATE DATABASE " + database);
    }
    // Multi-row INSERTs for JDBC batches: what a PostgreSQL deployment of the gateway should set.
    var dataSource =
        pool(
            pg.url().replace("/postgres", "/" + database) + "?reWriteBatchedInserts=true",
            options.threads() + 2);
    try {
      var jdbi = Jdbi.create(dataSource);
      new DatabaseMigrator().migrate(jdbi);
      var sealer = new OutboxSealer(5_000, Duration.ofSeconds(2));
      if (way.equals("sealer")) {
        jdbi.useHandle(h -> OutboxSealer.DDL.forEach(h::execute));
      }
      AuditAppender appender = way.equals("head") ? new AuditChainHead() : sealer;
      double rate = measure(jdbi, appender, way.equals("sealer") ? sealer : null, batch, options);
      var store = new AuditStore(jdbi);
      var verifier = new AuditChainVerifier(1, AuditChain.GENESIS_HASH);
      long head = store.head().seq();
      try (var events = store.events(1, head)) {
        events.forEach(verifier::accept);
      }
      var report = verifier.finish(head, store.head().hash());
      return new Result(
          way,
          batch,
          options.threads(),
          rate,
          report.eventsChecked(),
          report.ok() ? "OK" : report.firstProblem().orElseThrow().toString());
    } finally {
      dataSource.stop();
    }
  }

  /** Events chained per second in the measured window. */
  private static double measure(
      Jdbi jdbi, AuditAppender appender, OutboxSealer sealer, int batch, Options options)
      throws InterruptedException {
    var stop = new AtomicBoolean();
    var written = new AtomicLong();
    var threads = new ArrayList<Thread>();
    for (int t = 0; t < options.threads(); t++) {
      int writer = t;
      var thread =
          new Thread(
              () -> {
                var entries = entries(writer, batch);
                while (!stop.get()) {
                  jdbi.useTransaction(h -> appender.append(h, entries));
                  written.addAndGet(batch);
                }
              },
              "writer-" + t);
      threads.add(thread);
    }
    var sealing = new AtomicBoolean(sealer != null);
    Thread sealerThread = null;
    if (sealer != null) {
      sealerThread =
          new Thread(
              () -> {
                while (sealing.get()) {
                  if (sealer.sealOnce(jdbi) == 0) {
                    sleep(Duration.ofMillis(2));
                  }
                }
              },
              "sealer");
      sealerThread.start();
    }
    threads.forEach(Thread::start);
    var store = new AuditStore(jdbi);
    sleep(WARMUP);
    long startSeq = store.head().seq();
    long start = System.nanoTime();
    sleep(Duration.ofSeconds(options.seconds()));
    long endSeq = store.head().seq();
    double seconds = (System.nanoTime() - start) / 1e9;
    stop.set(true);
    for (var thread : threads) {
      thread.join();
    }
    if (sealerThread != null) {
      // Drain what the writers left, so the chain read back is complete.
      while (store.head().seq() < written.get()) {
        sleep(Duration.ofMillis(20));
      }
      sealing.set(false);
      sealerThread.join();
    }
    return (endSeq - startSeq) / seconds;
  }

  /** A writer's events: a state change with the details a reconciler writes, about 400 bytes. */
  private static List<AuditEntry> entries(int writer, int batch) {
    var entries = new ArrayList<AuditEntry>(batch);
    for (int i = 0; i < batch; i++) {
      entries.add(
          AuditEntry.builder(
                  Instant.now(),
                  AuditActor.system("reconciler"),
                  AuditActions.JOB_STATE,
                  "job/01j9zq8m4d1v6x2k7c3n5p8r" + writer + i)
              .team("nlp")
              .backend("eks-prod-use1")
              .details(
                  Map.of(
                      "from", "SUBMITTED",
                      "to", "RUNNING",
                      "attempt", 1,
                      "replica", "1234@gateway-" + writer,
                      "reason", "all 4 replicas running on g5.12xlarge (spot)",
                      "object", "ty-01j9zq8m4d1v6x2k7c3n5p8r-a1"))
              .build());
    }
    return entries;
  }

  private static ManagedDataSource pool(String url, int size) {
    var factory = new DataSourceFactory();
    factory.setDriverClass("org.postgresql.Driver");
    factory.setUrl(url);
    factory.setUser("postgres");
    factory.setPassword("");
    factory.setMinSize(1);
    factory.setInitialSize(1);
    factory.setMaxSize(size);
    return factory.build(new MetricRegistry(), "bench");
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private record Options(
      int threads,
      List<Integer> batches,
      int seconds,
      boolean durable,
      List<String> ways,
      String pgBin) {
    static Options parse(String[] args) {
      var map = new java.util.HashMap<String, String>();
      for (int i = 0; i + 1 < args.length; i += 2) {
        map.put(args[i], args[i + 1]);
      }
      return new Options(
          Integer.parseInt(map.getOrDefault("--threads", "8")),
          List.of(map.getOrDefault("--batches", "1,10,100").split(",")).stream()
              .map(Integer::parseInt)
              .toList(),
          Integer.parseInt(map.getOrDefault("--seconds", "10")),
          Boolean.parseBoolean(map.getOrDefault("--durable", "true")),
          List.of(map.getOrDefault("--ways", "head,sealer").split(",")),
          map.getOrDefault("--pg-bin", "/usr/lib/postgresql/15/bin"));
    }
  }
}
