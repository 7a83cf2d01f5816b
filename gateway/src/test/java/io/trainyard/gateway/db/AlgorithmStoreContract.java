package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.algorithms.Algorithm;
import io.trainyard.gateway.algorithms.AlgorithmDefinition;
import io.trainyard.gateway.algorithms.AlgorithmVersion;
import io.trainyard.gateway.algorithms.HyperparameterSpec;
import io.trainyard.gateway.algorithms.HyperparameterType;
import io.trainyard.gateway.algorithms.VersionStatus;
import io.trainyard.gateway.algorithms.Visibility;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.audit.AuditChainHead;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.jobs.CanonicalJson;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.Resources;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The registry's rows and their audit events; run on H2 and PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AlgorithmStoreContract {
  private static final Instant T0 = Instant.parse("2030-01-02T03:04:05.123456789Z");

  private TestDatabase db;
  private AlgorithmStore store;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    store = new AlgorithmStore(db.jdbi(), new AuditLog(db.jdbi(), new AuditChainHead(), true));
  }

  @BeforeEach
  void empty() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM algorithm_versions");
              h.execute("DELETE FROM algorithms");
            });
  }

  @Test
  void aCreatedAlgorithmReadsBackWithItsFirstVersionAsDefaultAndIsAudited() {
    var v1 = version("nlp", "bert", 1, "img:1");
    var before = events("algorithm.create");

    assertThat(store.create(algorithm("nlp", "bert", Visibility.TEAM), v1, event("create")))
        .isTrue();

    var found = store.find("nlp", "bert").orElseThrow();
    assertThat(found.defaultVersion()).isEqualTo(1);
    assertThat(found.visibility()).isEqualTo(Visibility.TEAM);
    assertThat(found.createdAt()).isEqualTo("2030-01-02T03:04:05.123456Z");
    var stored = store.version("nlp", "bert", 1).orElseThrow();
    assertThat(stored.definition()).isEqualTo(v1.definition());
    assertThat(stored.definitionHash()).isEqualTo(v1.definitionHash());
    assertThat(stored.definition().hyperparameters().get(0).defaultValue()).isEqualTo(0.001);
    assertThat(store.version("nlp", "bert", 2)).isEmpty();
    assertThat(events("algorithm.create")).isEqualTo(before + 1);
  }

  @Test
  void aSecondAlgorithmOfTheSameNameInTheTeamIsRefusedAndNothingIsWritten() {
    store.create(
        algorithm("nlp", "bert", Visibility.TEAM), version("nlp", "bert", 1, "a"), event("create"));
    var before = events("algorithm.create");

    assertThat(
            store.create(
                algorithm("nlp", "bert", Visibility.EVERYONE),
                version("nlp", "bert", 1, "b"),
                event("create")))
        .isFalse();
    assertThat(
            store.create(
                algorithm("vision", "bert", Visibility.TEAM),
                version("vision", "bert", 1, "b"),
                event("create")))
        .isTrue();

    assertThat(store.version("nlp", "bert", 1).orElseThrow().definition().image()).isEqualTo("a");
    assertThat(events("algorithm.create")).isEqualTo(before + 1);
  }

  @Test
  void aPublishedVersionNeverChangesAndTheSameDefinitionAgainIsANoOp() {
    store.create(
        algorithm("nlp", "bert", Visibility.TEAM), version("nlp", "bert", 1, "a"), event("create"));
    var before = events("algorithm.publish");

    assertThat(store.publish(version("nlp", "bert", 2, "b"), event("publish")))
        .isEqualTo(AlgorithmStore.Published.CREATED);
    assertThat(store.publish(version("nlp", "bert", 2, "b"), event("publish")))
        .isEqualTo(AlgorithmStore.Published.SAME);
    assertThat(store.publish(version("nlp", "bert", 2, "changed"), event("publish")))
        .isEqualTo(AlgorithmStore.Published.DIFFERENT);
    assertThat(store.publish(version("nlp", "gpt", 1, "b"), event("publish")))
        .isEqualTo(AlgorithmStore.Published.NO_ALGORITHM);

    assertThat(store.version("nlp", "bert", 2).orElseThrow().definition().image()).isEqualTo("b");
    assertThat(store.find("nlp", "bert").orElseThrow().defaultVersion()).isEqualTo(1);
    assertThat(store.versions("nlp", "bert"))
        .extracting(AlgorithmVersion::version)
        .containsExactly(1, 2);
    assertThat(events("algorithm.publish")).isEqualTo(before + 1);
  }

  @Test
  void concurrentPublishesOfOneVersionStoreOneAndAgreeOnIt() throws Exception {
    store.create(
        algorithm("nlp", "bert", Visibility.TEAM), version("nlp", "bert", 1, "a"), event("create"));
    var pool = Executors.newFixedThreadPool(4);
    try {
      var tasks =
          List.<Callable<AlgorithmStore.Published>>of(
              () -> store.publish(version("nlp", "bert", 7, "same"), event("publish")),
              () -> store.publish(version("nlp", "bert", 7, "same"), event("publish")),
              () -> store.publish(version("nlp", "bert", 7, "same"), event("publish")),
              () -> store.publish(version("nlp", "bert", 7, "same"), event("publish")));
      var results =
          pool.invokeAll(tasks).stream()
              .map(
                  f -> {
                    try {
                      return f.get();
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  })
              .toList();
      assertThat(results)
          .containsOnly(AlgorithmStore.Published.CREATED, AlgorithmStore.Published.SAME);
      assertThat(results).filteredOn(r -> r == AlgorithmStore.Published.CREATED).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void defaultStatusAndVisibilityMoveAndEachMoveIsAudited() {
    store.create(
        algorithm("nlp", "bert", Visibility.TEAM), version("nlp", "bert", 1, "a"), event("create"));
    store.publish(version("nlp", "bert", 2, "b"), event("publish"));
    var before = events("algorithm.status");

    assertThat(store.setDefault("nlp", "bert", 2, T0.plusSeconds(5), event("default"))).isTrue();
    assertThat(store.setStatus("nlp", "bert", 1, VersionStatus.WITHDRAWN, event("status")))
        .isTrue();
    assertThat(store.setStatus("nlp", "bert", 9, VersionStatus.WITHDRAWN, event("status")))
        .isFalse();
    assertThat(store.setVisibility("nlp", "bert", Visibility.EVERYONE, T0, event("visibility")))
        .isTrue();
    assertThat(store.setDefault("nlp", "nope", 2, T0, event("default"))).isFalse();

    var found = store.find("nlp", "bert").orElseThrow();
    assertThat(found.defaultVersion()).isEqualTo(2);
    assertThat(found.visibility()).isEqualTo(Visibility.EVERYONE);
    assertThat(found.updatedAt()).isEqualTo(T0.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
    assertThat(store.version("nlp", "bert", 1).orElseThrow().status())
        .isEqualTo(VersionStatus.WITHDRAWN);
    assertThat(events("algorithm.status")).isEqualTo(before + 1);
  }

  @Test
  void aTeamSeesItsOwnAlgorithmsAndEveryonesPublicOnes() {
    store.create(
        algorithm("nlp", "bert", Visibility.TEAM), version("nlp", "bert", 1, "a"), event("create"));
    store.create(
        algorithm("nlp", "gpt", Visibility.EVERYONE),
        version("nlp", "gpt", 1, "a"),
        event("create"));
    store.create(
        algorithm("vision", "resnet", Visibility.TEAM),
        version("vision", "resnet", 1, "a"),
        event("create"));

    assertThat(names(store.list(Set.of("vision")))).containsExactly("nlp/gpt", "vision/resnet");
    assertThat(names(store.list(Set.of("nlp")))).containsExactly("nlp/bert", "nlp/gpt");
    assertThat(names(store.list(Set.of()))).containsExactly("nlp/gpt");
    assertThat(names(store.list(null))).containsExactly("nlp/bert", "nlp/gpt", "vision/resnet");
  }

  private static List<String> names(List<Algorithm> algorithms) {
    return algorithms.stream().map(Algorithm::qualifiedName).toList();
  }

  private static Algorithm algorithm(String team, String name, Visibility visibility) {
    return new Algorithm(team, name, "about " + name, visibility, 1, "alice", T0, T0);
  }

  private static AlgorithmVersion version(String team, String name, int v, String image) {
    var d =
        new AlgorithmDefinition(
            Framework.PYTORCH,
            image,
            List.of("python", "train.py"),
            List.of("--log=info"),
            Map.of("A", "1"),
            new Resources(1, null, 2.0, "4Gi"),
            Map.of("master", 1),
            List.of(
                new HyperparameterSpec(
                    "lr",
                    HyperparameterType.FLOAT,
                    0.001,
                    BigDecimal.ZERO,
                    BigDecimal.ONE,
                    null,
                    null,
                    "learning rate")),
            null);
    return new AlgorithmVersion(
        team, name, v, d, CanonicalJson.sha256(d), VersionStatus.ACTIVE, "alice", T0);
  }

  private static AuditEntry event(String verb) {
    return AuditEntry.builder(T0, AuditActors.GATEWAY, "algorithm." + verb, "algorithm/test")
        .build();
  }

  private long events(String action) {
    return db.jdbi()
        .withHandle(
            h ->
                h.createQuery("SELECT COUNT(*) FROM audit_events WHERE action = :action")
                    .bind("action", action)
                    .mapTo(Long.class)
                    .one());
  }
}
