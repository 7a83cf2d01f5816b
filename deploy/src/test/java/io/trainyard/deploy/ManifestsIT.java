package io.trainyard.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.trainyard.testkit.CrdSchema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kustomization of {@code deploy/} as a cluster would get it: rendered by {@code kubectl
 * kustomize}, parsed with fabric8's typed models with nothing left in any object's {@code
 * additionalProperties} (a misspelt or misplaced field lands there, where the API server would drop
 * it or refuse it) — custom resources without a model (CloudNativePG's {@code Cluster}, the
 * Prometheus Operator's {@code ServiceMonitor}, Gateway API's {@code HTTPRoute}) checked against
 * their CRDs' schemas instead — and applied to fabric8's API server in CRUD mode.
 */
class ManifestsIT {
  /** Custom resources parsed without a fabric8 model: where they are served. */
  private static final Map<String, ResourceDefinitionContext> CUSTOM =
      Map.of(
          "postgresql.cnpg.io/v1/Cluster",
          context("postgresql.cnpg.io", "Cluster", "clusters"),
          "monitoring.coreos.com/v1/ServiceMonitor",
          context("monitoring.coreos.com", "ServiceMonitor", "servicemonitors"),
          "gateway.networking.k8s.io/v1/HTTPRoute",
          context("gateway.networking.k8s.io", "HTTPRoute", "httproutes"));

  /** Their CRDs' schemas (trimmed copies of the published CRDs, each file names its source). */
  private static final Map<String, String> CRD_FILES =
      Map.of(
          "postgresql.cnpg.io/v1/Cluster", "postgresql.cnpg.io_clusters.yaml",
          "monitoring.coreos.com/v1/ServiceMonitor", "monitoring.coreos.com_servicemonitors.yaml",
          "gateway.networking.k8s.io/v1/HTTPRoute", "gateway.networking.k8s.io_httproutes.yaml");

  private static final CrdSchema CRDS = new CrdSchema("/crds/");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** fabric8's API server in CRUD mode: what is created is stored and served back. */
  private final KubernetesMockServer server =
      new KubernetesMockServer(
          new Context(),
          new MockWebServer(),
          new HashMap<>(),
          new KubernetesMixedDispatcher(new HashMap<>()),
          false);

  private KubernetesClient client;

  /** A fresh, empty server per kustomization: each applies to a cluster of its own. */
  @BeforeEach
  void start() {
    server.init();
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  @ParameterizedTest
  @ValueSource(strings = {"base", "overlays/dev", "overlays/production", "examples"})
  void rendersParsesWithoutUnknownFieldsAndApplies(String dir) throws Exception {
    var objects = dir.equals("examples") ? parse(files(dir)) : parse(kustomize(dir));
    assertThat(objects).isNotEmpty();
    var unknown = new ArrayList<String>();
    for (var object : objects) {
      var where = object.getKind() + " " + object.getMetadata().getName();
      if (CRD_FILES.containsKey(key(object))) {
        crdProblems(object).stream().map(problem -> where + ": " + problem).forEach(unknown::add);
      }
      if (object instanceof GenericKubernetesResource generic) {
        assertThat(CUSTOM)
            .as(where + ": a custom resource this test knows")
            .containsKey(key(generic));
      } else {
        unknownFields(object, where, unknown);
      }
    }
    assertThat(unknown)
        .as("fields no model or CRD schema has (misspelt or misplaced), or breaking the schema")
        .isEmpty();

    for (var object : objects) {
      var created = apply(object);
      assertThat(created.getMetadata().getName()).isEqualTo(object.getMetadata().getName());
      assertThat(read(object)).as(object.getKind() + " stored").isNotNull();
    }
  }

  @Test
  void aCustomResourceBreakingItsCrdIsCaught() {
    var wrong =
        parse(
            """
            apiVersion: postgresql.cnpg.io/v1
            kind: Cluster
            metadata: {name: db}
            spec: {instance: 3, storage: {size: 20Gi}}
            ---
            apiVersion: monitoring.coreos.com/v1
            kind: ServiceMonitor
            metadata: {name: gw}
            spec:
              selector: {matchLabels: {app: gw}}
              endpoints: [{port: admin, interval: 30 seconds}]
            ---
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: gw}
            spec:
              rules: [{matches: [{path: {type: Prefix, value: /v1}}]}]
            """);
    var problems = wrong.stream().flatMap(r -> crdProblems(r).stream()).toList();
    assertThat(problems)
        .contains(
            "spec.instance: is not in the schema",
            "spec.instances: is required",
            "spec.rules[0].matches[0].path.type: must be one of"
                + " [\"Exact\",\"PathPrefix\",\"RegularExpression\"]")
        .anyMatch(p -> p.startsWith("spec.endpoints[0].interval: '30 seconds' does not match"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"base", "overlays/dev", "overlays/production"})
  void theGatewayPodIsLockedDownAndProbedOnTheAdminPort(String dir) throws Exception {
    var deployment =
        parse(kustomize(dir)).stream()
            .filter(
                o ->
                    o instanceof Deployment d
                        && d.getMetadata().getName().equals("trainyard-gateway"))
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow();
    var pod = deployment.getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    var gateway = pod.getContainers().get(0);
    assertThat(gateway.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(gateway.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(gateway.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(gateway.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(gateway.getResources().getLimits()).containsKey("memory");
    for (var probe :
        List.of(
            gateway.getLivenessProbe(), gateway.getReadinessProbe(), gateway.getStartupProbe())) {
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("admin");
    }
    // Data and temp on volumes: the root filesystem is read-only.
    assertThat(gateway.getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .contains("/var/lib/trainyard", "/tmp");
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(dir.equals("overlays/dev") ? 1 : 2);
  }

  private HasMetadata apply(HasMetadata object) {
    if (object instanceof GenericKubernetesResource generic) {
      var ops = client.genericKubernetesResources(CUSTOM.get(key(generic)));
      var namespace = generic.getMetadata().getNamespace();
      return (namespace == null ? ops : ops.inNamespace(namespace)).resource(generic).create();
    }
    return client.resource(object).create();
  }

  private HasMetadata read(HasMetadata object) {
    if (object instanceof GenericKubernetesResource generic) {
      var ops = client.genericKubernetesResources(CUSTOM.get(key(generic)));
      var namespace = generic.getMetadata().getNamespace();
      return (namespace == null ? ops : ops.inNamespace(namespace))
          .withName(generic.getMetadata().getName())
          .get();
    }
    return client.resource(object).get();
  }

  private static String key(HasMetadata r) {
    return r.getApiVersion() + "/" + r.getKind();
  }

  /**
   * How a custom resource breaks its CRD's schema: for those without a fabric8 model the only check
   * of their fields, for those with one (HTTPRoute) the enums and patterns a model does not hold.
   */
  private static List<String> crdProblems(HasMetadata object) {
    return CRDS.check(CRD_FILES.get(key(object)), JSON.valueToTree(object));
  }

  private static ResourceDefinitionContext context(String group, String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion("v1")
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }

  private List<HasMetadata> parse(String yaml) {
    return client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
  }

  /** {@code kubectl kustomize deploy/<dir>}: the objects as a cluster would get them. */
  private static String kustomize(String dir) throws IOException, InterruptedException {
    var process =
        new ProcessBuilder("kubectl", "kustomize", deployDir().resolve(dir).toString())
            .redirectErrorStream(true)
            .start();
    var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl kustomize ended").isTrue();
    assertThat(process.exitValue()).as("kubectl kustomize " + dir + ":\n" + out).isZero();
    return out;
  }

  /** The example files of {@code dir}, as one multi-document stream. */
  private static String files(String dir) throws IOException {
    var all = new StringBuilder();
    try (var paths = java.nio.file.Files.list(deployDir().resolve(dir))) {
      for (var file : paths.sorted().toList()) {
        all.append(java.nio.file.Files.readString(file)).append("\n---\n");
      }
    }
    return all.toString();
  }

  private static Path deployDir() {
    return Path.of(System.getProperty("trainyard.deploy.dir", "."));
  }

  /**
   * Every fabric8 model object reachable from {@code object} whose {@code additionalProperties}
   * holds something: a field the model (and so the API) does not have.
   */
  private static void unknownFields(Object object, String path, List<String> unknown)
      throws InvocationTargetException, IllegalAccessException {
    if (object instanceof Collection<?> list) {
      var i = 0;
      for (var item : list) {
        unknownFields(item, path + "[" + i++ + "]", unknown);
      }
      return;
    }
    if (object instanceof Map<?, ?> map) {
      for (var e : map.entrySet()) {
        unknownFields(e.getValue(), path + "." + e.getKey(), unknown);
      }
      return;
    }
    if (!(object instanceof KubernetesResource)) {
      return;
    }
    for (Method getter : object.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      var value = getter.invoke(object);
      if (getter.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
          unknown.add(path + ": " + extra.keySet());
        }
        continue;
      }
      unknownFields(value, path + "." + field(getter), unknown);
    }
  }

  private static String field(Method getter) {
    var name = getter.getName().substring(3);
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }
}
