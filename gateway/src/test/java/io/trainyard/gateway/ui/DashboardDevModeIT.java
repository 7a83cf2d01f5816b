package io.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.Browser;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * The dashboard in headless Chromium against the whole gateway in dev mode (H2, the local backend
 * running real processes): sign in through the dev issuer with the one-time code from the log,
 * submit a job by pasted YAML, watch it succeed, read its routing decision's bar chart and its
 * followed logs, compare two runs' metrics, be refused the audit page as a trainer and use it as an
 * auditor — with no error in the browser console. Screenshots go to target/screenshots/.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardDevModeIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-dashboard");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern CODE =
      Pattern.compile(
          "Dashboard sign-in \\(dev mode\\): open \\S+ and enter the one-time code (\\S+)");

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static final String ALGORITHM =
      """
      name: echo-train
      description: prints the hyperparameters it is given
      framework: pytorch
      image: python:3.11-slim
      command: [bash, -c, 'echo "train-args: $*"', train]
      args: [--data=/data]
      replicas: {master: 1}
      hyperparameters:
        - {name: lr, type: float, default: 0.001, min: 0, max: 1}
        - {name: epochs, type: int, default: 2, min: 1, max: 50}
        - {name: optimizer, type: enum, values: [adamw, sgd], default: adamw}
      """;

  private static Browser browser;
  private static String base;
  private static String firstJob;
  private static String secondJob;

  @BeforeAll
  static void start() {
    assumeTrue(Browser.available(), "needs Debian's chromium and chromium-driver (.ci/run)");
    browser = new Browser();
    base = "http://127.0.0.1:" + APP.getLocalPort();
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  @Order(1)
  void signsInThroughTheDevIssuerWithTheOneTimeCodeFromTheLog() throws Exception {
    browser.open(base + "/");
    browser.awaitVisible("#sign-in").click();
    browser.awaitVisible("#one-time-code").sendKeys("not-the-code");
    browser.find("#dev-sign-in").click();
    assertThat(browser.awaitVisible("#signin-error").getText()).contains("one-time code");

    signIn("alice", "nlp", "trainer", "team-admin");
    assertThat(browser.awaitVisible("#who").getText()).contains("alice").contains("trainer");
    // Back where the sign-in started, the code in the URL gone.
    assertThat(browser.driver().getCurrentUrl()).isEqualTo(base + "/");
    // A reload forgets the in-memory tokens: the user signs in again.
    browser.open(base + "/");
    browser.awaitVisible("#sign-in").click();
    signIn("alice", "nlp", "trainer", "team-admin");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  @Order(2)
  void submitsAJobByPastedYamlAndWatchsItSucceed() {
    firstJob = submit("dash-one", 6);
    // The page opened on a live job follows its log (a fetch stream) until the job ends.
    assertThat(browser.awaitVisible("#log-follow").isSelected()).isTrue();
    awaitSucceeded();
    browser.await(
        "the followed log, complete",
        d ->
            d.findElement(By.id("log-status")).getText().contains("the log is complete")
                    && d.findElement(By.id("logs")).getText().contains("learned weights")
                ? true
                : null);
    browser.screenshot("job");
  }

  @Test
  @Order(3)
  void theRoutingDecisionHasOneBarPerCandidate() {
    go("/jobs/" + firstJob);
    var rows =
        browser.await(
            "candidates",
            d -> {
              var found = d.findElements(By.cssSelector("#candidates tbody tr"));
              return found.isEmpty() ? null : found;
            });
    var canvas = browser.awaitVisible("#decision-chart");
    var points = canvas.getAttribute("data-points").split(",");
    assertThat(points).hasSize(2); // hourly and estimated total, one bar each per candidate
    assertThat(Integer.parseInt(points[0])).isEqualTo(rows.size());
    assertThat(Integer.parseInt(points[1])).isEqualTo(rows.size());
    assertThat(rows).hasSize(2);
    assertThat(browser.find("#candidates tr.chosen").getText()).startsWith("local ");
  }

  @Test
  @Order(4)
  void followsTheLogsAndFiltersThemByReplica() {
    go("/jobs/" + firstJob);
    browser.await(
        "the log",
        d -> d.findElement(By.id("logs")).getText().contains("learned weights") ? true : null);
    var replica = browser.find("#log-replica");
    replica.sendKeys("worker-0");
    browser.find("form[aria-label='Log options'] button[type=submit]").click();
    browser.await(
        "only worker-0's lines",
        d -> {
          var text = d.findElement(By.id("logs")).getText();
          return !text.isBlank() && !text.contains("master-0") ? true : null;
        });
    browser.screenshot("job-logs");
  }

  @Test
  @Order(5)
  void comparesTwoRunsOnOneChart() {
    secondJob = submit("dash-two", 4);
    awaitSucceeded();
    go("/compare?jobs=" + firstJob + "," + secondJob);
    var chart = browser.awaitVisible("#compare-loss");
    var points = chart.getAttribute("data-points").split(",");
    assertThat(points).containsExactly("6", "4");
    browser.screenshot("compare");
  }

  @Test
  @Order(6)
  void theJobsListShowsBothAndFiltersByState() {
    go("/?state=SUCCEEDED");
    browser.await(
        "both jobs",
        d ->
            d.findElements(By.cssSelector("#jobs tbody tr[data-state=SUCCEEDED]")).size() >= 2
                ? true
                : null);
    go("/?state=RUNNING");
    browser.await(
        "no running job", d -> d.findElements(By.cssSelector("#jobs tbody tr")).isEmpty());
    go("/");
    browser.awaitVisible("#jobs tbody tr");
    browser.screenshot("jobs");
    go("/backends");
    browser.awaitVisible("#backends tbody tr[data-backend=local]");
    browser.screenshot("backends");
    go("/spend");
    // GET /v1/spend: nlp's runs this month per backend, and what they would have cost elsewhere.
    var nlp =
        browser.await(
            "nlp's spend and its managed comparison",
            d ->
                d.findElements(By.cssSelector("#comparison tbody tr")).stream()
                    .filter(r -> r.getText().startsWith("nlp"))
                    .findFirst()
                    .orElse(null));
    assertThat(nlp.getText()).contains("$");
    assertThat(browser.find("#spend-chart").getAttribute("data-points")).isNotBlank();
    browser.screenshot("spend");
    go("/algorithms");
    browser.awaitVisible("h1");
    browser.screenshot("algorithms");
  }

  @Test
  @Order(7)
  void submitsByAlgorithmAndHyperparameters() {
    var token =
        io.trainyard.auth.DevIssuer.loadOrCreate(
                DIR, io.trainyard.gateway.config.AuthConfig.DEV_ISSUER)
            .mint(
                "alice",
                java.util.Set.of("nlp"),
                java.util.Set.of("trainer"),
                java.time.Duration.ofMinutes(5));
    var registered =
        new GatewayClient(APP.getLocalPort())
            .post("/v1/algorithms", token, "application/yaml", ALGORITHM);
    assertThat(registered.status()).as(registered.body()).isEqualTo(201);

    go("/");
    browser.awaitVisible("#new-job").click();
    browser.awaitVisible("#mode-algorithm").click();
    browser.await(
        "the registry",
        d ->
            d.findElements(By.cssSelector("#algorithm option[value='nlp/echo-train']")).isEmpty()
                ? null
                : true);
    new org.openqa.selenium.support.ui.Select(browser.find("#algorithm"))
        .selectByValue("nlp/echo-train");
    var lr = browser.awaitVisible("#hp-lr");
    lr.clear();
    lr.sendKeys("0.02");
    new org.openqa.selenium.support.ui.Select(browser.find("#hp-optimizer")).selectByValue("sgd");
    browser.find("#algorithm-job-name").sendKeys("dash-echo");
    browser.find("#submit-job").click();
    browser.await(
        "the job's page", d -> d.getCurrentUrl().matches(".*/jobs/[0-9a-z]{26}$") ? true : null);
    awaitSucceeded();
    browser.await(
        "the hyperparameters as arguments",
        d -> {
          var text = d.findElement(By.id("logs")).getText();
          return text.contains("train-args: --data=/data --lr=0.02")
                  && text.contains("--optimizer=sgd")
              ? true
              : null;
        });
  }

  @Test
  @Order(8)
  void theAuditPageRefusesATrainerAndServesAnAuditor() throws Exception {
    go("/audit");
    assertThat(browser.awaitVisible("#audit-refused").getText()).contains("auditor");
    browser.find("#sign-out").click();
    browser.awaitVisible("#sign-in").click();
    signIn("carol", "nlp", "auditor");
    go("/audit");
    browser.await(
        "audit events",
        d -> d.findElements(By.cssSelector("#audit-events tbody tr")).size() > 3 ? true : null);
    // Each dashboard sign-in is in the trail: alice's (twice) and carol's.
    go("/audit?action=auth.dev-sign-in");
    browser.await(
        "the sign-ins",
        d -> d.findElements(By.cssSelector("#audit-events tbody tr")).size() == 3 ? true : null);
    go("/audit");
    browser.await(
        "all events",
        d -> d.findElements(By.cssSelector("#audit-events tbody tr")).size() > 3 ? true : null);
    browser.find("#audit-events tbody tr button").click();
    assertThat(browser.awaitVisible(".event-detail").getText()).contains("eventHash");
    browser.find("#start-export").click();
    assertThat(browser.awaitVisible("#export-result").getText()).contains("intact");
    browser.screenshot("audit");
    assertThat(browser.consoleErrors()).isEmpty();
  }

  @Test
  @Order(9)
  void servesThePagesWithAStrictContentSecurityPolicy() throws Exception {
    var client = new GatewayClient(APP.getLocalPort());
    var page = client.get("/jobs/" + firstJob, null);
    assertThat(page.status()).isEqualTo(200);
    var csp = header(page, "Content-Security-Policy");
    assertThat(csp)
        .contains("script-src 'self'")
        .contains("style-src 'self'")
        .contains("connect-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe");
    assertThat(header(page, "Cache-Control")).isEqualTo("no-store");
    var asset = Pattern.compile("/assets/app-[A-Z0-9]+\\.js").matcher(page.body());
    assertThat(asset.find()).isTrue();
    var js = client.get(asset.group(), null);
    assertThat(header(js, "Cache-Control")).contains("immutable");
    assertThat(client.get("/v1/jobs", null).status()).isEqualTo(401);
  }

  private static String header(GatewayClient.Answer answer, String name) {
    var values = answer.headers().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static void signIn(String user, String teams, String... roles) throws IOException {
    browser.awaitVisible("#one-time-code").sendKeys(oneTimeCode());
    var userField = browser.find("#user");
    userField.clear();
    userField.sendKeys(user);
    var teamsField = browser.find("#teams");
    teamsField.clear();
    teamsField.sendKeys(teams);
    for (var box : browser.all("input[name=role]")) {
      if (box.isSelected() != java.util.List.of(roles).contains(box.getAttribute("value"))) {
        box.click();
      }
    }
    browser.find("#dev-sign-in").click();
    browser.awaitVisible("#who");
  }

  /** The newest one-time code the gateway printed. */
  private static String oneTimeCode() throws IOException {
    var matcher = CODE.matcher(Files.readString(DIR.resolve("gateway.log")));
    String code = null;
    while (matcher.find()) {
      code = matcher.group(1);
    }
    assertThat(code).as("a one-time code in the log").isNotNull();
    return code;
  }

  /**
   * Moves within the single-page app, as its links do: a reload would sign the user out, since
   * tokens are kept in memory only.
   */
  private static void go(String path) {
    browser
        .driver()
        .executeScript(
            "history.pushState(null, '', arguments[0]);"
                + " dispatchEvent(new PopStateEvent('popstate'));",
            path);
  }

  private static String submit(String name, int epochs) {
    go("/");
    browser.awaitVisible("#new-job").click();
    browser.awaitVisible("#job-yaml").sendKeys(job(name, epochs));
    browser.find("#submit-job").click();
    browser.await(
        "the job's page", d -> d.getCurrentUrl().matches(".*/jobs/[0-9a-z]{26}$") ? true : null);
    var url = browser.driver().getCurrentUrl();
    return url.substring(url.lastIndexOf('/') + 1);
  }

  private static void awaitSucceeded() {
    browser.await(
        "SUCCEEDED",
        d -> {
          var state = d.findElement(By.id("job-state")).getText();
          assertThat(state).isNotIn("FAILED", "CANCELLED");
          return state.equals("SUCCEEDED") ? true : null;
        });
  }

  private static String job(String name, int epochs) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata:
          name: %s
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, examples/linear_regression.py]
          args: [--epochs, "%d"]
          replicas: {master: 1, worker: 1}
          resources: {cpus: 1, memory: 512Mi}
          restartPolicy: Never
          estimatedHours: 2
          maxRuntime: 3h
        """
        .formatted(name, epochs);
  }

  private static String config() {
    return """
        dataDir: %1$s
        database:
          url: "jdbc:h2:file:%1$s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        reconciler:
          resyncInterval: 200ms
        logging:
          level: INFO
          appenders:
            - {type: file, currentLogFilename: "%1$s/gateway.log", archive: false}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
          requestLog:
            appenders:
              - {type: file, currentLogFilename: "%1$s/requests.log", archive: false}
        backends:
          - type: local
            codeDir: %2$s
            secretsDir: %1$s/secrets
            usdPerHour: 0.40
          - type: local
            id: local-premium
            codeDir: %2$s
            secretsDir: %1$s/secrets
            usdPerHour: 1.20
        """
        .formatted(DIR, REPO);
  }
}
