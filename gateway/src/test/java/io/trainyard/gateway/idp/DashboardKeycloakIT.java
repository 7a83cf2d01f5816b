package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.Browser;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The dashboard signs in through the real Keycloak: authorization code + PKCE with the public
 * client, Keycloak's own login page, the token fetched from the browser (CORS through the client's
 * web origin, as {@code bootstrap-idp} sets it from {@code gateway.publicUrl}), then the API with
 * that token, and logout through Keycloak's end-session endpoint.
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
class DashboardKeycloakIT {
  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(() -> KeycloakExtension.realm().issuer());

  private static Browser browser;
  private static String base;

  @BeforeAll
  static void start() {
    assumeTrue(Browser.available(), "needs Debian's chromium and chromium-driver (.ci/run)");
    base = "http://127.0.0.1:" + APP.getLocalPort();
    allowDashboard(base);
    browser = new Browser();
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
  }

  /** What bootstrap-idp does for gateway.publicUrl, on the test realm's public client. */
  private static void allowDashboard(String url) {
    var clients = KeycloakExtension.server().admin().realm(KeycloakExtension.REALM).clients();
    var client = clients.findByClientId(TestRealm.CLI_CLIENT).get(0);
    var redirects =
        new ArrayList<>(Objects.requireNonNullElse(client.getRedirectUris(), java.util.List.of()));
    redirects.add(url + "/callback");
    client.setRedirectUris(redirects);
    client.setWebOrigins(java.util.List.of(url));
    var attributes =
        new HashMap<>(Objects.requireNonNullElse(client.getAttributes(), java.util.Map.of()));
    attributes.put("post.logout.redirect.uris", url + "/*");
    client.setAttributes(attributes);
    clients.get(client.getId()).update(client);
  }

  @Test
  void signsInAtKeycloakUsesTheApiAndSignsOut() {
    browser.open(base + "/");
    browser.awaitVisible("#sign-in").click();
    browser.awaitVisible("#username").sendKeys("dave");
    browser.find("#password").sendKeys(TestRealm.PASSWORD);
    browser.find("#kc-login").click();

    assertThat(browser.awaitVisible("#who").getText()).contains("dave").contains("auditor");
    assertThat(browser.driver().getCurrentUrl()).isEqualTo(base + "/");
    browser
        .driver()
        .executeScript(
            "history.pushState(null, '', '/audit'); dispatchEvent(new PopStateEvent('popstate'));");
    browser.await(
        "audit events with Keycloak's token",
        d -> d.findElements(By.cssSelector("#audit-events tbody tr")).isEmpty() ? null : true);
    browser.screenshot("keycloak-audit");

    browser.find("#sign-out").click();
    browser.awaitVisible("#sign-in");
    assertThat(browser.driver().getCurrentUrl()).startsWith(base + "/");
    assertThat(browser.consoleErrors()).filteredOn(m -> m.contains(base)).isEmpty();
  }
}
