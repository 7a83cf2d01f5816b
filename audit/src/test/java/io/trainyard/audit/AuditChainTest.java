package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditChainTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void theFirstEventChainsToThirtyTwoZeroBytesAndHashesItsCanonicalForm() {
    var event = TestChain.event(1);
    var chained = new AuditChain().append(event);

    var sha256 = AuditChain.newSha256();
    byte[] eventHash = sha256.digest(CanonicalJson.bytes(event.toTree()));
    sha256.update(new byte[32]);
    byte[] hash = sha256.digest(eventHash);
    assertThat(chained.eventHash()).isEqualTo(Hex.encode(eventHash));
    assertThat(chained.hash()).isEqualTo(Hex.encode(hash));
    assertThat(AuditChain.GENESIS_HASH).isEqualTo("0".repeat(64));
  }

  @Test
  void theCanonicalFormHasElevenKeysWithNullsSortedAndMicrosecondTime() {
    var event =
        AuditEvent.builder()
            .seq(7)
            .time(Instant.parse("2026-11-30T10:00:00.123456789Z"))
            .actor(AuditActor.system("reconciler"))
            .action(AuditActions.JOB_STATE)
            .resource("job/abc")
            .details(Map.of("from", "QUEUED", "to", "RUNNING"))
            .build();
    assertThat(CanonicalJson.text(event.toTree()))
        .isEqualTo(
            "{\"action\":\"job.state\",\"actor\":{\"client\":null,\"requestId\":null,"
                + "\"sourceIp\":null,\"subject\":\"system:reconciler\",\"username\":null},"
                + "\"backend\":null,\"details\":{\"from\":\"QUEUED\",\"to\":\"RUNNING\"},"
                + "\"outcome\":\"success\",\"resource\":\"job/abc\",\"seq\":7,\"team\":null,"
                + "\"time\":\"2026-11-30T10:00:00.123456Z\"}");
  }

  @Test
  void appendResumeAndSealAgree() {
    var whole = new AuditChain();
    var all = new ArrayList<ChainedEvent>();
    for (int i = 1; i <= 10; i++) {
      all.add(whole.append(TestChain.event(i)));
    }
    var resumed = AuditChain.resumeAfter(5, all.get(4).hash());
    assertThat(resumed.nextSeq()).isEqualTo(6);
    assertThat(resumed.append(TestChain.event(6))).isEqualTo(all.get(5));
    assertThat(AuditChain.seal(TestChain.event(8), all.get(6).hash())).isEqualTo(all.get(7));
    assertThat(AuditChain.link(all.get(8).hash(), all.get(9).eventHash()))
        .isEqualTo(all.get(9).hash());
    assertThat(AuditChain.eventHash(TestChain.event(3))).isEqualTo(all.get(2).eventHash());
    assertThat(whole.lastSeq()).isEqualTo(10);
    assertThat(whole.lastHash()).isEqualTo(all.get(9).hash());
  }

  @Test
  void refusesAnEventOutOfTurn() {
    var chain = new AuditChain();
    assertThatThrownBy(() -> chain.append(TestChain.event(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not follow");
  }

  @Test
  void anEventReadBackFromJsonHashesAsWritten() throws Exception {
    var chained = new AuditChain().append(TestChain.event(1));
    var text = CanonicalJson.text(chained.toTree());
    var back = ChainedEvent.fromTree(MAPPER.readTree(text));
    assertThat(back).isEqualTo(chained);
    assertThat(AuditChain.eventHash(back.event())).isEqualTo(chained.eventHash());
  }

  @Test
  void detailsCannotBeChangedAfterTheEventIsBuilt() {
    var details = MAPPER.createObjectNode().put("k", "v");
    var event = TestChain.event(1);
    var built =
        AuditEvent.builder()
            .seq(1)
            .actor(event.actor())
            .action("job.submit")
            .resource("job/x")
            .details(details)
            .build();
    details.put("k", "changed");
    ((com.fasterxml.jackson.databind.node.ObjectNode) built.details()).put("k", "changed");
    assertThat(built.details().get("k").asText()).isEqualTo("v");
  }

  @Test
  void validatesTheEventShape() {
    var builder = AuditEvent.builder().seq(1).actor(AuditActor.system("x")).resource("job/a");
    assertThatThrownBy(() -> builder.action("Job Submit").build())
        .hasMessageContaining("area.verb");
    assertThatThrownBy(() -> builder.action("job.submit").seq(0).build())
        .hasMessageContaining("seq starts at 1");
  }

  @Test
  void theVerifierPassesAnIntactStoredChainAndNamesTheEditedEvent() {
    var signer = DigestSigner.fromPem(Ed25519Keys.privatePem(Ed25519Keys.generate().getPrivate()));
    var chain = new TestChain(signer, 50, 10);
    var report = AuditChainVerifier.verify(chain.events, chain.digests, signer.verifier());
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.eventsChecked()).isEqualTo(50);
    assertThat(report.digestsChecked()).isEqualTo(5);

    var tampered = new ArrayList<>(chain.events);
    var original = tampered.get(22);
    var edited =
        new AuditEvent(
            original.seq(),
            original.event().time(),
            original.event().actor(),
            original.event().action(),
            "job/someone-else",
            original.event().outcome(),
            original.event().team(),
            original.event().backend(),
            original.event().details());
    tampered.set(22, new ChainedEvent(edited, original.eventHash(), original.hash()));
    var bad = AuditChainVerifier.verify(tampered, chain.digests, signer.verifier());
    assertThat(bad.ok()).isFalse();
    assertThat(bad.firstBadSeq()).hasValue(23);
    assertThat(bad.findings()).hasSize(1);
  }

  @Test
  void hexIsLowerCaseOnly() {
    assertThat(Hex.encode("é".getBytes(StandardCharsets.UTF_8))).isEqualTo("c3a9");
    assertThat(Hex.isHex("AB".repeat(32), 32)).isFalse();
    assertThatThrownBy(() -> Hex.decode("AB")).isInstanceOf(IllegalArgumentException.class);
    assertThat(List.of(Hex.decode("00ff7f"))).hasSize(1);
  }
}
