package io.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.trainyard.gateway.config.MetricsConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/observability.md and the files it ships (scrape config, rules, Grafana dashboard, KEDA
 * objects) parse, and every metric they name is one the gateway's registry exports: the docs cannot
 * drift from the code.
 */
class ObservabilityDocsTest {
  private static final Path DOCS = Path.of("..").toAbsolutePath().normalize().resolve("docs");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A metric name, not part of a recorded one ({@code trainyard:…}) or of a longer word. */
  private static final Pattern METRIC = Pattern.compile("(?<![A-Za-z0-9_:])trainyard_[a-z0-9_]+");

  private static final Pattern RECORDED = Pattern.compile("trainyard:[a-z0-9_:]+[a-z0-9]");

  private static Set<String> exported;

  @BeforeAll
  static void exportedNames() {
    var jdbi = Jdbi.create("jdbc:h2:mem:observability-docs;DB_CLOSE_DELAY=-1");
    new DatabaseMigrator().migrate(jdbi);
    var metrics = new GatewayMetrics();
    metrics.readDatabase(jdbi, Map::of, new MetricsConfig(), Clock.systemUTC());
    var names = new TreeSet<String>();
    for (var snapshot : metrics.registry().scrape()) {
      var name = snapshot.getMetadata().getPrometheusName();
      if (snapshot instanceof CounterSnapshot) {
        names.add(name + "_total");
      } else if (snapshot instanceof HistogramSnapshot) {
        names.addAll(List.of(name, name + "_bucket", name + "_count", name + "_sum"));
      } else {
        names.add(name);
      }
    }
    exported = names;
    assertThat(exported).contains("trainyard_queue_jobs", "trainyard_jobs_submitted_total");
  }

  @Test
  void theScrapeConfigReadsTheAdminEndpoint() throws IOException {
    var config = YAML.readTree(DOCS.resolve("prometheus/scrape-config.yml").toFile());
    var jobs = config.get("scrape_configs");
    assertThat(jobs).isNotEmpty();
    for (var job : jobs) {
      assertThat(job.get("metrics_path").asText()).isEqualTo(GatewayMetrics.PATH);
    }
  }

  @Test
  void everyRuleIsARecordOrAnAlertOverExportedMetrics() throws IOException {
    var text = Files.readString(DOCS.resolve("prometheus/trainyard-rules.yml"));
    var recorded = new TreeSet<String>();
    var rules = 0;
    for (var group : YAML.readTree(text).get("groups")) {
      assertThat(group.get("name").asText()).isNotBlank();
      for (var rule : group.get("rules")) {
        rules++;
        assertThat(rule.hasNonNull("record") ^ rule.hasNonNull("alert"))
            .as(rule.toString())
            .isTrue();
        assertThat(rule.path("expr").asText()).as(rule.toString()).isNotBlank();
        if (rule.hasNonNull("record")) {
          assertThat(rule.get("record").asText()).matches("trainyard:[a-z0-9_]+:[a-z0-9_]+");
          recorded.add(rule.get("record").asText());
        }
      }
    }
    assertThat(rules).isGreaterThanOrEqualTo(10);
    assertThat(recorded)
        .contains("trainyard:job_failure:ratio_rate1h", "trainyard:job_availability:ratio_rate6h");
    assertUsesOnlyExported(text, "trainyard-rules.yml");
    assertThat(used(RECORDED, text)).isSubsetOf(recorded);
    // The dashboard reads recorded series only from these rules.
    var dashboard = Files.readString(DOCS.resolve("grafana/trainyard-training.json"));
    assertThat(used(RECORDED, dashboard)).isSubsetOf(recorded);
  }

  @Test
  void theDashboardParsesAndQueriesExportedMetrics() throws IOException {
    var dashboard = JSON.readTree(DOCS.resolve("grafana/trainyard-training.json").toFile());
    assertThat(dashboard.get("uid").asText()).isEqualTo("trainyard-training");
    var exprs = new StringBuilder();
    for (var panel : dashboard.get("panels")) {
      assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      for (var target : panel.get("targets")) {
        exprs.append(target.get("expr").asText()).append('\n');
      }
    }
    exprs.append(dashboard.at("/templating/list/0/definition").asText());
    assertThat(used(METRIC, exprs.toString())).isNotEmpty();
    assertUsesOnlyExported(exprs.toString(), "the dashboard");
  }

  @Test
  void kedaScalesPausePodsOnTheQueueGauge() throws IOException {
    var docs = new ArrayList<JsonNode>();
    try (var parser =
        YAML.getFactory().createParser(DOCS.resolve("keda/queue-capacity.yaml").toFile())) {
      YAML.readValues(parser, JsonNode.class).forEachRemaining(docs::add);
    }
    var byKind = new java.util.HashMap<String, JsonNode>();
    docs.forEach(d -> byKind.put(d.get("kind").asText(), d));
    assertThat(byKind).containsOnlyKeys("PriorityClass", "Deployment", "ScaledObject");
    var deployment = byKind.get("Deployment");
    var pod = deployment.at("/spec/template/spec");
    assertThat(pod.at("/containers/0/image").asText()).contains("pause");
    assertThat(pod.get("priorityClassName").asText())
        .isEqualTo(byKind.get("PriorityClass").at("/metadata/name").asText());
    assertThat(byKind.get("PriorityClass").get("value").asInt()).isNegative();
    assertThat(pod.get("nodeSelector")).isNotEmpty();
    var scaled = byKind.get("ScaledObject");
    assertThat(scaled.at("/spec/scaleTargetRef/name").asText())
        .isEqualTo(deployment.at("/metadata/name").asText());
    var trigger = scaled.at("/spec/triggers/0");
    assertThat(trigger.get("type").asText()).isEqualTo("prometheus");
    var query = trigger.at("/metadata/query").asText();
    assertThat(used(METRIC, query)).containsExactly("trainyard_queue_jobs");
    assertUsesOnlyExported(query, "the ScaledObject");
  }

  @Test
  void thePageNamesOnlyExportedMetricsAndLinksItsFiles() throws IOException {
    var page = Files.readString(DOCS.resolve("observability.md"));
    assertUsesOnlyExported(page, "observability.md");
    // Every metric the registry exports is documented.
    for (var name : exported) {
      if (!name.endsWith("_bucket") && !name.endsWith("_count") && !name.endsWith("_sum")) {
        assertThat(page).as("observability.md documents " + name).contains("`" + name + "`");
      }
    }
    for (var file :
        List.of(
            "prometheus/scrape-config.yml",
            "prometheus/trainyard-rules.yml",
            "grafana/trainyard-training.json",
            "keda/queue-capacity.yaml")) {
      assertThat(page).contains("(" + file + ")");
      assertThat(DOCS.resolve(file)).exists();
    }
  }

  private static void assertUsesOnlyExported(String text, String where) {
    for (var name : used(METRIC, text)) {
      if (name.endsWith("_")) {
        // A family written as trainyard_queue_*: some exported metric starts so.
        assertThat(exported).as(where + " names " + name + "*").anyMatch(e -> e.startsWith(name));
      } else {
        assertThat(exported).as(where + " names " + name).contains(name);
      }
    }
  }

  private static Set<String> used(Pattern pattern, String text) {
    var found = new TreeSet<String>();
    var m = pattern.matcher(text);
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }
}
