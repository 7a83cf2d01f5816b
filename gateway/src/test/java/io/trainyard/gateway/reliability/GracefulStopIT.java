package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.GatewayNode;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica stopped with SIGTERM, as Kubernetes stops a pod: it takes no new connection, finishes
 * the request in flight, ends an open log follow with a last line (the client reads the end of the
 * answer, not a reset), hands its job over so the other replica follows it at once, and exits 0.
 * Then the same job's new owner is killed with SIGKILL, which hands nothing over: the job waits for
 * its lease to lapse. Both hand-over times are measured and printed (FIGURES replica-handover;
 * docs/deploy.md "Stopping a replica"), never asserted.
 *
 * <p>{@code -Dtrainyard.replicas.lease} and {@code -Dtrainyard.replicas.resync} set the
 * reconciler's lease and resync interval (defaults here 10s and 1s, to keep the run short; the
 * documented figures were measured with the gateway's defaults, 30s and 2s).
 */
class GracefulStopIT {
  private static final String NAMESPACE = "ml-jobs";
  private static final Duration READY = Duration.ofMinutes(3);
  private static final Duration HANDOVER = Duration.ofMinutes(2);

  private static PostgresServer postgres;
  private static TestIssuer issuer;
  private static KubernetesTarget kubernetes;

  @BeforeAll
  static void startParts() {
    postgres = PostgresServer.startDurable();
    issuer = TestIssuer.start();
    kubernetes = new KubernetesTarget();
  }

  @AfterAll
  static void stopParts() {
    kubernetes.close();
    issuer.close();
    postgres.close();
  }

  @Test
  void aStoppedReplicaFinishesWhatItDoesAndHandsItsJobOverAtOnceAKilledOneAfterItsLease()
      throws Exception {
    var dir = ReplicasIT.clusterDir("graceful-stop-");
    var lease = System.getProperty("trainyard.replicas.lease", "10s");
    var resync = System.getProperty("trainyard.replicas.resync", "1s");
    var db = postgres.createDatabase();
    try (var cluster =
        GatewayCluster.builder(db.url(), db.user(), issuer)
            .dir(dir)
            .nodes(2)
            .lease(lease)
            .resyncInterval(resync)
            .shutdownGracePeriod("20s")
            // The in-flight upload below is slow on purpose: it must still be going at the stop.
            .extraYaml("requestBodies: {grace: 5m}")
            .teams("ml: {backends: [k8s], namespaces: {k8s: " + NAMESPACE + "}}")
            .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()))
            .start()) {
      var trainer = issuer.mint("mia", List.of("ml"), List.of("trainer"));
      var submitted =
          cluster
              .client(0)
              .post(
                  "/v1/jobs",
                  trainer,
                  "application/yaml",
                  ReplicasIT.spec("followed"),
                  "Idempotency-Key",
                  "followed");
      assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
      var job = submitted.json().get("id").asText();
      cluster.client(0).awaitState(job, "SUBMITTED", trainer);
      var owner = awaitOwner(db, job, cluster, null);
      var other = cluster.nodes().get(1 - cluster.nodes().indexOf(owner));

      // A follow and a submission in flight on the owner when SIGTERM comes.
      var follow =
          HttpClient.newHttpClient()
              .sendAsync(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + owner.appPort()
                                  + "/v1/jobs/"
                                  + job
                                  + "/logs?follow=true"))
                      .header("Authorization", "Bearer " + trainer)
                      .GET()
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      awaitFollowAudited(db, job);
      // A slow upload: a byte every 50 ms (during a stop Jetty closes connections idle for 1 s).
      var body =
          ("# " + "slow upload ".repeat(100) + "\n" + ReplicasIT.spec("in-flight"))
              .getBytes(StandardCharsets.UTF_8);
      var refused = new AtomicBoolean();
      var uploader = Executors.newSingleThreadExecutor();
      try (var inFlight = new Socket("127.0.0.1", owner.appPort())) {
        inFlight.setSoTimeout((int) Duration.ofMinutes(2).toMillis());
        var out = inFlight.getOutputStream();
        out.write(
            ("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + trainer
                    + "\r\nContent-Type: application/yaml\r\nIdempotency-Key: in-flight"
                    + "\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        // 100 Continue: the gateway is reading the body, so the request is being handled.
        assertThat(readHead(inFlight.getInputStream())).startsWith("HTTP/1.1 100");

        Future<Integer> trickled =
            uploader.submit(
                () -> {
                  int sent = 0;
                  while (sent < body.length && !refused.get()) {
                    out.write(body[sent++]);
                    out.flush();
                    Thread.sleep(50);
                  }
                  out.write(body, sent, body.length - sent);
                  out.flush();
                  return sent;
                });
        long signalled = System.nanoTime();
        owner.terminate();
        awaitRefused(owner);
        refused.set(true);
        assertThat(trickled.get(1, TimeUnit.MINUTES))
            .as("the upload was still going when the node stopped taking connections")
            .isLessThan(body.length);
        uploader.shutdown();
        long handedOver = awaitOwnerChange(db, job, owner, other, signalled);

        var answer = new String(inFlight.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(answer).as("the request in flight is finished").startsWith("HTTP/1.1 201");
        assertThat(owner.awaitExit(Duration.ofMinutes(1))).as(owner.logTail()).isZero();

        var followed = follow.get(1, TimeUnit.MINUTES);
        assertThat(followed.statusCode()).isEqualTo(200);
        assertThat(followed.body())
            .as("the follow ends with a line, not a reset")
            .endsWith(
                "--- this gateway is shutting down; resume with follow=true"
                    + " (another replica answers) ---\n");
        assertThat(ReplicasIT.log(owner)).contains("job leases handed over: 1");
        var inFlightJob = answer.substring(answer.indexOf("\"id\":\"") + 6);
        inFlightJob = inFlightJob.substring(0, inFlightJob.indexOf('"'));
        other.client().awaitState(inFlightJob, "SUBMITTED", trainer);

        // The same job, now the other replica's, after a SIGKILL.
        owner.start();
        owner.awaitReady(READY);
        long killed = System.nanoTime();
        other.kill();
        long adoptedAfterKill = awaitOwnerChange(db, job, other, owner, killed);
        other.start();
        other.awaitReady(READY);

        new ReliabilityFigures("replica-handover")
            .put("lease", lease)
            .put("resyncInterval", resync)
            .put("sigtermToFollowedMs", handedOver)
            .put("sigkillToFollowedMs", adoptedAfterKill)
            .publish();
        assertThat(adoptionsOf(db, job)).isGreaterThanOrEqualTo(2);
        assertThat(CrashRecoveryIT.verifyChain(cluster, issuer)).isTrue();
      }
    }
  }

  /** The node whose reconciler holds {@code job}'s lease (other than {@code not}). */
  private static GatewayNode awaitOwner(
      TestDatabase db, String job, GatewayCluster cluster, GatewayNode not) throws Exception {
    var deadline = System.nanoTime() + HANDOVER.toNanos();
    while (System.nanoTime() < deadline) {
      var leaseOwner = leaseOwner(db, job);
      for (var node : cluster.nodes()) {
        if (node != not && node.isAlive() && (node.pid() + "@").equals(prefix(leaseOwner))) {
          return node;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no live node leases job " + job);
  }

  /**
   * Polls until {@code to} holds the job's lease (it has been stepped by it); returns the
   * milliseconds since {@code since}.
   */
  private static long awaitOwnerChange(
      TestDatabase db, String job, GatewayNode from, GatewayNode to, long since) throws Exception {
    var deadline = System.nanoTime() + HANDOVER.toNanos();
    var expected = to.pid() + "@";
    while (System.nanoTime() < deadline) {
      if (expected.equals(prefix(leaseOwner(db, job)))) {
        return (System.nanoTime() - since) / 1_000_000;
      }
      Thread.sleep(10);
    }
    throw new AssertionError(
        "job " + job + " never followed by " + to + " after " + from + " went:\n" + to.logTail());
  }

  private static String prefix(String leaseOwner) {
    return leaseOwner == null ? "" : leaseOwner.substring(0, leaseOwner.indexOf('@') + 1);
  }

  private static String leaseOwner(TestDatabase db, String job) {
    return db.jdbi()
        .withHandle(
            h ->
                h.createQuery("SELECT lease_owner FROM jobs WHERE id = :id")
                    .bind("id", job)
                    .mapTo(String.class)
                    .findOne()
                    .orElse(null));
  }

  private static int adoptionsOf(TestDatabase db, String job) {
    return db.jdbi()
        .withHandle(
            h ->
                h.createQuery(
                        "SELECT COUNT(*) FROM audit_events WHERE action = 'backend.adopt'"
                            + " AND resource = :resource")
                    .bind("resource", "job/" + job)
                    .mapTo(Integer.class)
                    .one());
  }

  /** The follow request is audited before its first byte: then it is being served. */
  private static void awaitFollowAudited(TestDatabase db, String job) throws Exception {
    var deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline) {
      int n =
          db.jdbi()
              .withHandle(
                  h ->
                      h.createQuery(
                              "SELECT COUNT(*) FROM audit_events WHERE action = 'job.logs'"
                                  + " AND resource = :resource")
                          .bind("resource", "job/" + job)
                          .mapTo(Integer.class)
                          .one());
      if (n > 0) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the log follow of " + job + " was never served");
  }

  /** Waits until the node's application port refuses new connections. */
  private static void awaitRefused(GatewayNode node) throws Exception {
    var deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (System.nanoTime() < deadline) {
      try (var probe = new Socket()) {
        probe.connect(new InetSocketAddress("127.0.0.1", node.appPort()), 1000);
      } catch (ConnectException refused) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError(node + " still accepts connections after SIGTERM");
  }

  /** One response head (status line and headers), up to the blank line. */
  private static String readHead(InputStream in) throws IOException {
    var head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed after " + head);
      }
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }
}
