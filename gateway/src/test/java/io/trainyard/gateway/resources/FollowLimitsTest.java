package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FollowLimitsTest {
  private final FollowLimits limits =
      new FollowLimits(
          new FollowLimits.Settings(2, 3, Duration.ofMinutes(10), Duration.ofSeconds(10)));

  @Test
  void aCallerGetsAtMostItsShareAndTheReplicaAtMostItsTotal() {
    var a1 = limits.acquire("alice");
    var a2 = limits.acquire("alice");
    assertThatThrownBy(() -> limits.acquire("alice"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.TOO_MANY_REQUESTS);
              assertThat(e.retryAfterSeconds()).isEqualTo(10);
              assertThat(e.errors().get(0).field()).isEqualTo("follow");
            });
    var b1 = limits.acquire("bob");
    assertThatThrownBy(() -> limits.acquire("carol"))
        .hasMessageContaining("already serves 3 followed log streams");
    assertThat(limits.held()).isEqualTo(3);

    a1.close();
    a1.close(); // a second close gives nothing back twice
    assertThat(limits.held()).isEqualTo(2);
    var c1 = limits.acquire("carol");
    assertThatThrownBy(() -> limits.acquire("alice")).hasMessageContaining("already serves");
    a2.close();
    b1.close();
    c1.close();
    assertThat(limits.held()).isZero();
    limits.acquire("alice").close();
  }
}
