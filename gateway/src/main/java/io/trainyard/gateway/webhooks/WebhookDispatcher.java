package io.trainyard.gateway.webhooks;

import io.dropwizard.lifecycle.Managed;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox: every poll interval, and at once when a job change added deliveries, this
 * replica leases due deliveries, checks each receiver's address again, POSTs the stored body signed
 * with the webhook's secret, and records the attempt. A 2xx delivers; anything else (a redirect
 * included: redirects are not followed) is retried on the {@link RetrySchedule} with the same event
 * id. Deliveries are leased, so several replicas share the work without attempting one at the same
 * time. Thread-safe.
 */
public final class WebhookDispatcher implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookDispatcher.class);
  private static final int MAX_ERROR = 1000;

  /** How this replica works through the outbox. */
  public record Settings(
      String owner,
      Duration lease,
      Duration pollInterval,
      int batchSize,
      Duration connectTimeout,
      Duration readTimeout) {
    public Settings {
      Objects.requireNonNull(owner, "owner");
      if (lease.compareTo(connectTimeout.plus(readTimeout).multipliedBy(2)) < 0) {
        throw new IllegalArgumentException(
            "webhooks.lease must be at least twice connectTimeout + readTimeout, so that no other"
                + " replica attempts a delivery while this one still may");
      }
    }
  }

  private final WebhookStore store;
  private final WebhookSecrets secrets;
  private final ReceiverPolicy policy;
  private final RetrySchedule retries;
  private final Settings settings;
  private HttpClient http; // guarded by this: made at the first delivery
  private final AtomicBoolean wakeQueued = new AtomicBoolean();
  private ScheduledExecutorService loop;
  private ExecutorService senders;

  public WebhookDispatcher(
      WebhookStore store,
      WebhookSecrets secrets,
      ReceiverPolicy policy,
      RetrySchedule retries,
      Settings settings) {
    this.store = Objects.requireNonNull(store, "store");
    this.secrets = Objects.requireNonNull(secrets, "secrets");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.retries = Objects.requireNonNull(retries, "retries");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * The client, made at the first delivery: most gateways have no webhook, and making one (its
   * selector thread, the default TLS context and its trust store) showed in profiles of the start.
   */
  private synchronized HttpClient http() {
    if (http == null) {
      // No proxy (it would reach what the address checks refuse), no redirects, HTTP/1.1 for the
      // plainest receivers.
      http =
          HttpClient.newBuilder()
              .connectTimeout(settings.connectTimeout())
              .followRedirects(HttpClient.Redirect.NEVER)
              .version(HttpClient.Version.HTTP_1_1)
              .build();
    }
    return http;
  }

  @Override
  public void start() {
    loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var t = new Thread(r, "webhooks-" + settings.owner());
              t.setDaemon(true);
              return t;
            });
    senders =
        Executors.newFixedThreadPool(
            settings.batchSize(),
            r -> {
              var t = new Thread(r, "webhook-send");
              t.setDaemon(true);
              return t;
            });
    var every = settings.pollInterval().toMillis();
    loop.scheduleWithFixedDelay(this::safeTick, every, every, TimeUnit.MILLISECONDS);
  }

  @Override
  public void stop() throws InterruptedException {
    if (loop != null) {
      loop.shutdownNow();
      senders.shutdownNow();
      loop.awaitTermination(5, TimeUnit.SECONDS);
      senders.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Looks at the outbox now rather than at the next poll (after a commit that added to it). */
  public void wakeUp() {
    if (loop != null && wakeQueued.compareAndSet(false, true)) {
      try {
        loop.execute(
            () -> {
              wakeQueued.set(false);
              safeTick();
            });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        wakeQueued.set(false); // stopping
      }
    }
  }

  private void safeTick() {
    try {
      tick();
    } catch (RuntimeException e) {
      LOG.warn("webhook deliveries could not be worked through; trying again at the next poll", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Delivers every due delivery, a batch at a time, in parallel within a batch. */
  void tick() throws InterruptedException {
    while (!Thread.currentThread().isInterrupted()) {
      var batch = store.claim(settings.owner(), settings.lease(), settings.batchSize());
      if (batch.isEmpty()) {
        return;
      }
      var running = new ArrayList<Future<?>>(batch.size());
      for (var delivery : batch) {
        running.add(senders.submit(() -> attempt(delivery)));
      }
      for (var f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          LOG.warn("a webhook delivery attempt failed unexpectedly", e.getCause());
        }
      }
    }
  }

  /** One attempt of a leased delivery, recorded whatever happens. */
  void attempt(Delivery delivery) {
    var number = delivery.attempts() + 1;
    var started = store.now();
    var webhook = store.find(delivery.team(), delivery.webhookId());
    if (webhook.isEmpty() || !webhook.get().enabled()) {
      var why = webhook.isEmpty() ? "the webhook was deleted" : "the webhook was disabled";
      record(delivery, number, started, null, why + "; not sent", 0, Delivery.Status.FAILED);
      return;
    }
    if (retries.expired(delivery.createdAt(), started)) {
      record(
          delivery,
          number,
          started,
          null,
          "older than webhooks.maxAge; not sent",
          0,
          Delivery.Status.FAILED);
      return;
    }
    Integer code = null;
    String error = null;
    var t0 = System.nanoTime();
    try {
      var uri = URI.create(webhook.get().url());
      policy.checkAtDelivery(uri);
      var secret =
          secrets.decrypt(delivery.team(), delivery.webhookId(), webhook.get().secretSealed());
      code = send(uri, secret, delivery, number);
      if (code / 100 != 2) {
        error =
            code / 100 == 3
                ? "the receiver answered a redirect (" + code + "); redirects are not followed"
                : "the receiver answered " + code;
      }
    } catch (ReceiverPolicy.Refused e) {
      error = "the receiver's URL " + e.getMessage();
    } catch (HttpConnectTimeoutException e) {
      error = "connecting timed out after " + settings.connectTimeout().toMillis() + " ms";
    } catch (HttpTimeoutException e) {
      error = "no answer within " + settings.readTimeout().toMillis() + " ms";
    } catch (IOException e) {
      error = "the receiver could not be reached: " + describe(e);
    } catch (IllegalStateException | IllegalArgumentException e) {
      error = e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return; // stopping: the lease lapses and the attempt is made again, same event id
    }
    var millis = (System.nanoTime() - t0) / 1_000_000;
    if (error == null) {
      record(delivery, number, started, code, null, millis, Delivery.Status.DELIVERED);
    } else {
      var next = retries.next(number, delivery.createdAt(), store.now());
      var status = next == null ? Delivery.Status.FAILED : Delivery.Status.PENDING;
      if (!store.recordAttempt(
          delivery,
          new Delivery.Attempt(number, started, code, cut(error), millis, settings.owner()),
          status,
          next)) {
        LOG.info("delivery {} was taken over before its attempt was recorded", delivery.id());
      }
    }
  }

  private int send(URI uri, String secret, Delivery delivery, int number)
      throws IOException, InterruptedException {
    var body = delivery.body().getBytes(StandardCharsets.UTF_8);
    var signature = WebhookSignature.header(secret, store.now().getEpochSecond(), body);
    var request =
        HttpRequest.newBuilder(uri)
            .timeout(settings.readTimeout())
            .header("Content-Type", JobEvents.CONTENT_TYPE)
            .header("User-Agent", "trainyard-webhooks/1")
            .header(WebhookSignature.HEADER, signature)
            .header("Trainyard-Delivery", delivery.id())
            .header("Trainyard-Attempt", Integer.toString(number))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    // Only the status matters; the body is not read, so a receiver cannot hold the sender.
    var response = http().send(request, HttpResponse.BodyHandlers.ofInputStream());
    response.body().close();
    return response.statusCode();
  }

  private void record(
      Delivery delivery,
      int number,
      java.time.Instant at,
      Integer code,
      String error,
      long millis,
      Delivery.Status status) {
    store.recordAttempt(
        delivery,
        new Delivery.Attempt(number, at, code, cut(error), millis, settings.owner()),
        status,
        null);
  }

  private static String describe(IOException e) {
    var message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  private static String cut(String error) {
    return error == null || error.length() <= MAX_ERROR ? error : error.substring(0, MAX_ERROR);
  }
}
