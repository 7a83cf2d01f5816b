package io.trainyard.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A chain of realistic events with digests every {@code digestEvery} events, held in memory and
 * served as an {@link AuditSource} the way the gateway's tables will serve it.
 */
final class TestChain implements AuditSource {
  static final Instant START = Instant.parse("2026-11-30T09:00:00.123456Z");
  private static final String[] TEAMS = {"nlp", "vision", "speech"};
  private static final String[] ACTIONS = {
    AuditActions.JOB_SUBMIT, AuditActions.JOB_ROUTE, AuditActions.JOB_STATE, AuditActions.JOB_LOGS
  };

  final List<ChainedEvent> events = new ArrayList<>();
  final List<AuditDigest> digests = new ArrayList<>();
  final DigestSigner signer;

  TestChain(DigestSigner signer, int count, int digestEvery) {
    this.signer = signer;
    var chain = new AuditChain();
    for (int i = 1; i <= count; i++) {
      events.add(chain.append(event(i)));
      if (i % digestEvery == 0) {
        sign(i);
      }
    }
  }

  static AuditEvent event(long seq) {
    int i = (int) seq;
    var team = TEAMS[i % TEAMS.length];
    return AuditEvent.builder()
        .seq(seq)
        .time(START.plus(Duration.ofMillis(250L * i)))
        .actor(
            new AuditActor(
                "user-" + (i % 5),
                "alice" + (i % 5),
                "trainyard-cli",
                "127.0.0." + (1 + i % 3),
                "req-" + i))
        .action(ACTIONS[i % ACTIONS.length])
        .resource("job/j-" + (i / 4))
        .team(team)
        .backend(i % 2 == 0 ? "sagemaker-use1" : "eks-prod-use1")
        .details(
            Map.of(
                "specHash",
                Hex.encode(AuditChain.newSha256().digest(("spec" + i).getBytes())),
                "costUsd",
                "12.40",
                "gpus",
                i % 8,
                "ratio",
                0.1 * i,
                "labels",
                Map.of("project", "sentiment", "note", "naïve €")))
        .build();
  }

  void sign(long toSeq) {
    sign(toSeq, signer);
  }

  /** Signs the next digest with {@code key}, as a gateway does after a key rotation. */
  void sign(long toSeq, DigestSigner key) {
    var previous = digests.isEmpty() ? null : digests.get(digests.size() - 1);
    digests.add(
        key.next(
            previous,
            toSeq,
            events.get((int) toSeq - 1).hash(),
            START.plus(Duration.ofMinutes(toSeq))));
  }

  @Override
  public String hashAt(long seq) {
    return seq == 0 ? AuditChain.GENESIS_HASH : events.get((int) seq - 1).hash();
  }

  @Override
  public Stream<ChainedEvent> events(long fromSeq, long toSeq) {
    return events.subList((int) fromSeq - 1, (int) Math.min(toSeq, events.size())).stream();
  }

  @Override
  public List<AuditDigest> digestsEndingBetween(long fromSeq, long toSeq) {
    return digests.stream().filter(d -> d.toSeq() >= fromSeq && d.toSeq() <= toSeq).toList();
  }
}
