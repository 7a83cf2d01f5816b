package io.trainyard.bench.follow;

import io.dropwizard.testing.DropwizardTestSupport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.spi.ObjectNames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Issue 19, gateway overhead: from {@code POST /v1/jobs} on the real gateway (H2 in a temporary
 * directory, dev tokens, a {@code type: kubernetes} backend reaching fabric8's CRUD API server
 * through a kubeconfig) to the PyTorchJob existing on that server, against a direct fabric8 create
 * of the same object on the same server, alternately, one client, {@code samples} of each. "Exists"
 * is when a watch on the server sees it ADDED, for both, so the watch's own delay is on both sides.
 *
 * <p>Run (from the repository root, after {@code mvn -B -o -q package -DskipTests -pl bench -am}):
 * {@code java -cp bench/target/benchmarks.jar io.trainyard.bench.follow.GatewayOverheadMain
 * [samples=300] [warmup=50]}. Not a test; {@code GatewayOverheadTest} runs a tiny version only to
 * check that it works.
 */
public final class GatewayOverheadMain {
  private static final ResourceDefinitionContext PYTORCH_JOBS =
      new ResourceDefinitionContext.Builder()
          .withGroup("kubeflow.org")
          .withVersion("v1")
          .withKind("PyTorchJob")
          .withPlural("pytorchjobs")
          .withNamespaced(true)
          .build();

  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-z]{26})\"");

  private GatewayOverheadMain() {}

  /** Both paths' latencies in ms, and the added latency at p50 and p99. */
  public record Result(int samples, double[] gatewayMs, double[] directMs, double[] answeredMs) {
    public String table() {
      return String.format(
          "| path | p50 | p90 | p99 |%n| --- | --- | --- | --- |%n"
              + "| POST /v1/jobs → PyTorchJob on the server | %.1f ms | %.1f ms | %.1f ms |%n"
              + "| direct fabric8 create | %.1f ms | %.1f ms | %.1f ms |%n"
              + "| **added by the gateway** | **%.1f ms** | %.1f ms | **%.1f ms** |%n"
              + "| of which: POST /v1/jobs answered (201) | %.1f ms | %.1f ms | %.1f ms |%n"
              + "(%d samples of each, alternately)",
          q(gatewayMs, 0.5),
          q(gatewayMs, 0.9),
          q(gatewayMs, 0.99),
          q(directMs, 0.5),
          q(directMs, 0.9),
          q(directMs, 0.99),
          q(gatewayMs, 0.5) - q(directMs, 0.5),
          q(gatewayMs, 0.9) - q(directMs, 0.9),
          q(gatewayMs, 0.99) - q(directMs, 0.99),
          q(answeredMs, 0.5),
          q(answeredMs, 0.9),
          q(answeredMs, 0.99),
          samples);
    }

    public static double q(double[] sorted, double q) {
      return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }
  }

  public static void main(String[] args) throws Exception {
    FollowBenchMain.quietLogs();
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    System.out.println(run(samples, warmup).table());
    System.exit(0);
  }

  public static Result run(int samples, int warmup) throws Exception {
    var dir = Files.createTempDirectory("gateway-overhead");
    try (var cluster = new CrudApiServer()) {
      var config = writeConfig(dir, cluster.url());
      var gateway =
          new DropwizardTestSupport<TrainyardConfiguration>(TrainyardApplication.class, config);
      gateway.before();
      try {
        FollowBenchMain.quietLogs();
        var token =
            DevIssuer.loadOrCreate(dir, AuthConfig.DEV_ISSUER)
                .mint("mia", Set.of("ml"), Set.of("trainer"), Duration.ofHours(2));
        var seen = new ConcurrentHashMap<String, Long>();
        var watch =
            cluster
                .client()
                .genericKubernetesResources(PYTORCH_JOBS)
                .inNamespace("ml-jobs")
                .watch(
                    new Watcher<GenericKubernetesResource>() {
                      @Override
                      public void eventReceived(Action action, GenericKubernetesResource job) {
                        if (action == Action.ADDED) {
                          seen.putIfAbsent(job.getMetadata().getName(), System.nanoTime());
                        }
                      }

                      @Override
                      public void onClose(WatcherException cause) {}
                    });
        var direct = cluster.newClient("direct-create");
        var http = HttpClient.newHttpClient();
        var url = URI.create("http://127.0.0.1:" + gateway.getLocalPort() + "/v1/jobs");
        var viaGateway = new ArrayList<Double>();
        var viaFabric8 = new ArrayList<Double>();
        var answered = new ArrayList<Double>();
        GenericKubernetesResource template = null;
        try {
          for (int i = 0; i < warmup + samples; i++) {
            var began = System.nanoTime();
            var answer =
                http.send(
                    HttpRequest.newBuilder(url)
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/yaml")
                        .POST(HttpRequest.BodyPublishers.ofString(cpuJob("ovh-" + i)))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
            var answeredNanos = System.nanoTime() - began;
            var id = ID.matcher(answer.body());
            if (answer.statusCode() != 201 || !id.find()) {
              throw new IllegalStateException(answer.statusCode() + " " + answer.body());
            }
            var name = ObjectNames.of(id.group(1), 1);
            var gatewayNanos = awaitSeen(seen, name) - began;

            if (template == null) {
              template =
                  cluster
                      .client()
                      .genericKubernetesResources(PYTORCH_JOBS)
                      .inNamespace("ml-jobs")
                      .withName(name)
                      .get();
            }
            var copy = copyOf(template, "direct-" + i);
            began = System.nanoTime();
            direct
                .genericKubernetesResources(PYTORCH_JOBS)
                .inNamespace("ml-jobs")
                .resource(copy)
                .create();
            var directNanos = awaitSeen(seen, copy.getMetadata().getName()) - began;
            if (i >= warmup) {
              viaGateway.add(gatewayNanos / 1e6);
              answered.add(answeredNanos / 1e6);
              viaFabric8.add(directNanos / 1e6);
            }
          }
        } finally {
          watch.close();
          direct.close();
        }
        return new Result(samples, sorted(viaGateway), sorted(viaFabric8), sorted(answered));
      } finally {
        gateway.after();
      }
    }
  }

  /** The same object under another name, as a client would send it (no server-set fields). */
  private static GenericKubernetesResource copyOf(GenericKubernetesResource job, String name) {
    var copy = new GenericKubernetesResource();
    copy.setApiVersion(job.getApiVersion());
    copy.setKind(job.getKind());
    var meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace(job.getMetadata().getNamespace());
    meta.setLabels(job.getMetadata().getLabels());
    meta.setAnnotations(job.getMetadata().getAnnotations());
    copy.setMetadata(meta);
    copy.getAdditionalProperties().put("spec", job.getAdditionalProperties().get("spec"));
    return copy;
  }

  private static long awaitSeen(Map<String, Long> seen, String name) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      var at = seen.get(name);
      if (at != null) {
        return at;
      }
      Thread.onSpinWait();
      Thread.sleep(0, 100_000);
    }
    throw new IllegalStateException(name + " not on the API server after 60 s");
  }

  private static double[] sorted(List<Double> values) {
    var copy = new ArrayList<>(values);
    Collections.sort(copy);
    return copy.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static String cpuJob(String name) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1, worker: 1}
        """
        .formatted(name);
  }

  private static String writeConfig(Path dir, String serverUrl) throws Exception {
    var kubeconfig = CrudApiServer.kubeconfig(serverUrl);
    // The gateway's defaults but the port, the teams and the backend (resync 2 s, lease 30 s).
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        logging: {level: WARN}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
          requestLog: {appenders: []}
        reconciler: {resyncInterval: %s}
        teams:
          ml: {backends: [k8s], namespaces: {k8s: ml-jobs}}
        backends:
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %s
            provider: aws
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 2000}
        """
            .formatted(dir, System.getProperty("bench.resync", "2s"), dir.resolve("kubeconfig"));
    Files.writeString(dir.resolve("kubeconfig"), kubeconfig);
    var file = dir.resolve("trainyard.yml");
    Files.writeString(file, yaml);
    return file.toString();
  }
}
