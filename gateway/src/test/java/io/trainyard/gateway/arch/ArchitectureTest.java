package io.trainyard.gateway.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;

/**
 * The arrows of DESIGN.md "The house", as tests: everything points towards {@code spi}, only the
 * gateway knows Dropwizard and the other modules, backends do not know each other.
 */
class ArchitectureTest {
  // Plain JUnit tests over one import: Surefire counts them, which it does not do for
  // ArchUnit's own engine.
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // The backends' test-jars (their test servers, for the gateway's tests) are test code
          // too.
          .withImportOption(location -> !location.contains("-tests.jar"))
          // So is the test kit, though its classes are in its src/main (the jar in a repository,
          // target/classes in a reactor build).
          .withImportOption(
              location ->
                  !location.contains("/trainyard-testkit-")
                      && !location.contains("/testkit/target/"))
          .importPackages("io.trainyard");

  @org.junit.jupiter.api.Test
  void theModulesAreAllThere() {
    org.assertj.core.api.Assertions.assertThat(
            CLASSES.stream().map(c -> c.getPackageName()).distinct())
        .contains(
            "io.trainyard.spi",
            "io.trainyard.cost",
            "io.trainyard.auth",
            "io.trainyard.backend.local",
            "io.trainyard.gateway")
        .doesNotContain("io.trainyard.testkit");
  }

  /** The test kit is test code: only tests may use it, whatever its jar's scope says. */
  @org.junit.jupiter.api.Test
  void noMainCodeDependsOnTheTestKit() {
    (noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.trainyard.testkit..")
            .as("no main code depends on io.trainyard.testkit"))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void spiDependsOnNoFrameworkOrSdk() {
    (classes()
            .that()
            .resideInAPackage("io.trainyard.spi..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                "java..",
                "io.trainyard.spi..",
                "com.fasterxml.jackson.annotation..",
                "io.opentelemetry.api..",
                "io.opentelemetry.context..")
            .as(
                "spi depends only on the JDK, Jackson annotations and the OpenTelemetry API"
                    + " (BackendContext.openTelemetry)"))
        .check(CLASSES);
  }

  /**
   * Backends make client spans with the OpenTelemetry API alone; the SDK, its exporters and their
   * configuration are the gateway's (docs/observability.md "Traces").
   */
  @org.junit.jupiter.api.Test
  void backendsUseTheOpenTelemetryApiOnly() {
    (noClasses()
            .that()
            .resideInAPackage("io.trainyard.backend..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.opentelemetry.sdk..", "io.opentelemetry.exporter..")
            .as("no backend imports io.opentelemetry.sdk or io.opentelemetry.exporter"))
        .check(CLASSES);
  }

  /** The rule above does look at the backends' tracing: their client spans are there to see. */
  @org.junit.jupiter.api.Test
  void backendsMakeClientSpansWithTheApi() {
    org.assertj.core.api.Assertions.assertThat(
            CLASSES.stream()
                .filter(c -> c.getPackageName().startsWith("io.trainyard.backend."))
                .filter(
                    c ->
                        c.getDirectDependenciesFromSelf().stream()
                            .anyMatch(
                                d ->
                                    d.getTargetClass()
                                        .getPackageName()
                                        .startsWith("io.opentelemetry.api")))
                .map(c -> c.getSimpleName()))
        .contains("KubernetesCallSpans", "SageMakerCallSpans", "VertexCallSpans");
  }

  @org.junit.jupiter.api.Test
  void onlyTheGatewayKnowsDropwizardJerseyAndJdbi() {
    (noClasses()
            .that()
            .resideOutsideOfPackage("io.trainyard.gateway..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.dropwizard..", "jakarta.ws.rs..", "org.jdbi..", "org.glassfish.."))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void nothingDependsOnTheGateway() {
    (noClasses()
            .that()
            .resideOutsideOfPackage("io.trainyard.gateway..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.trainyard.gateway.."))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void costDependsOnlyOnSpi() {
    (noClasses()
            .that()
            .resideInAPackage("io.trainyard.cost..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.trainyard.auth..", "io.trainyard.backend.."))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void authNeedsNoOtherModule() {
    (noClasses()
            .that()
            .resideInAPackage("io.trainyard.auth..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.trainyard.spi..", "io.trainyard.cost..", "io.trainyard.backend.."))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void backendsKnowOnlySpi() {
    (noClasses()
            .that()
            .resideInAPackage("io.trainyard.backend..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.trainyard.cost..", "io.trainyard.auth.."))
        .check(CLASSES);
  }

  /** eks and gke build on kubernetes; no other backend imports another. */
  @org.junit.jupiter.api.Test
  void backendsDoNotKnowEachOther() {
    (SlicesRuleDefinition.slices()
            .matching("io.trainyard.backend.(*)..")
            .should()
            .notDependOnEachOther()
            .ignoreDependency(
                com.tngtech.archunit.base.DescribedPredicate.describe(
                    "eks or gke",
                    (com.tngtech.archunit.core.domain.JavaClass c) ->
                        c.getPackageName().startsWith("io.trainyard.backend.eks")
                            || c.getPackageName().startsWith("io.trainyard.backend.gke")),
                com.tngtech.archunit.base.DescribedPredicate.describe(
                    "kubernetes",
                    (com.tngtech.archunit.core.domain.JavaClass c) ->
                        c.getPackageName().startsWith("io.trainyard.backend.kubernetes"))))
        .check(CLASSES);
  }

  /**
   * Backends are plugins: what knows a cloud SDK or a backend is a backend module, found at run
   * time. (cost-refresh, under {@code io.trainyard.cost.refresh}, is the price APIs' own client.)
   */
  @org.junit.jupiter.api.Test
  void theCoreKnowsNoCloudSdkAndNoBackend() {
    (noClasses()
            .that()
            .resideInAnyPackage(
                "io.trainyard.gateway..",
                "io.trainyard.cost",
                "io.trainyard.kubeflow..",
                "io.trainyard.audit..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.fabric8..",
                "software.amazon..",
                "com.google.cloud..",
                "com.azure..",
                "io.trainyard.backend..")
            .as("gateway, cost, kubeflow and audit know no cloud SDK and no backend module"))
        .check(CLASSES);
  }

  @org.junit.jupiter.api.Test
  void kubeflowUsesOnlySpiAndJackson() {
    (classes()
            .that()
            .resideInAPackage("io.trainyard.kubeflow..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                "java..",
                "io.trainyard.spi..",
                "io.trainyard.kubeflow..",
                "com.fasterxml.jackson..")
            .as("kubeflow depends only on spi and Jackson"))
        .check(CLASSES);
  }

  /**
   * Work after a commit goes through {@code AfterCommit}: Jdbi's own hook would also run for a
   * group commit's item rolled back to its savepoint.
   */
  @org.junit.jupiter.api.Test
  void afterCommitHooksGoThroughAfterCommit() {
    (noClasses()
            .that()
            .doNotHaveFullyQualifiedName("io.trainyard.gateway.db.AfterCommit")
            .should()
            .callMethod(org.jdbi.v3.core.Handle.class, "afterCommit", Runnable.class)
            .as("only AfterCommit registers Jdbi after-commit hooks"))
        .check(CLASSES);
  }
}
