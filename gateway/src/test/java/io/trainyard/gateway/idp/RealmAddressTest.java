package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RealmAddressTest {
  @Test
  void aKeycloakIssuerNamesServerAndRealm() {
    var address =
        RealmAddress.fromIssuer("https://sso.example.com/auth/realms/training/").orElseThrow();

    assertThat(address.serverUrl()).isEqualTo("https://sso.example.com/auth");
    assertThat(address.realm()).isEqualTo("training");
    assertThat(address.issuer()).isEqualTo("https://sso.example.com/auth/realms/training");
  }

  @Test
  void otherIssuersAreNotKeycloaks() {
    assertThat(RealmAddress.fromIssuer("https://login.example.com/oauth2")).isEmpty();
    assertThat(RealmAddress.fromIssuer("https://sso.example.com/realms/")).isEmpty();
    assertThat(RealmAddress.fromIssuer(null)).isEmpty();
  }

  @Test
  void refusesWhatCannotBeAServer() {
    assertThatThrownBy(() -> new RealmAddress("sso.example.com", "x")).hasMessageContaining("http");
    assertThatThrownBy(() -> new RealmAddress("https://sso", "a/b")).hasMessageContaining("realm");
  }
}
