package io.trainyard.gateway.testing.cluster;

import io.trainyard.audit.DigestSigner;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Several gateway <b>processes</b> on one PostgreSQL, the way a deployment runs replicas: each is
 * {@code java -jar gateway/target/trainyard.jar server} with its own directory, configuration and
 * loopback ports, all sharing the database, the audit keys and an OIDC issuer ({@link TestIssuer};
 * dev auth refuses PostgreSQL). For crash, fault and load tests that must see real processes die
 * ({@link GatewayNode#kill()}) and come back ({@link GatewayNode#start()}).
 *
 * <pre>{@code
 * try (var pg = PostgresServer.startDurable();
 *     var issuer = TestIssuer.start();
 *     var cluster = GatewayCluster.builder(pg.createDatabase().url(), "postgres", issuer)
 *         .nodes(2)
 *         .teams("ml: {backends: [k8s], namespaces: {k8s: ml-jobs}}")
 *         .backends("- {type: kubernetes, id: k8s, kubeconfig: /path, ...}")
 *         .start()) {
 *   var token = issuer.mint("mia", List.of("ml"), List.of("trainer"));
 *   cluster.node(0).client().post("/v1/jobs", token, "application/yaml", spec);
 *   cluster.node(0).kill();            // kill -9
 *   cluster.node(0).start();
 *   cluster.node(0).awaitReady(Duration.ofSeconds(60));
 * }
 * }</pre>
 *
 * <p>The jar comes from {@code -Dtrainyard.gateway.jar}, else {@code target/trainyard.jar} (the
 * gateway module's directory, where Failsafe runs, after {@code package}). Logs of each node are in
 * {@link GatewayNode#log()}; the directories are left behind for a post-mortem.
 */
public final class GatewayCluster implements AutoCloseable {
  private final List<GatewayNode> nodes;
  private final Thread shutdownHook;

  private GatewayCluster(List<GatewayNode> nodes) {
    this.nodes = List.copyOf(nodes);
    // Backstop for a test JVM that ends without closing the cluster: no orphaned gateways.
    this.shutdownHook = new Thread(() -> this.nodes.forEach(GatewayNode::kill), "cluster-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  public static Builder builder(String databaseUrl, String databaseUser, TestIssuer issuer) {
    return new Builder(databaseUrl, databaseUser, issuer);
  }

  public GatewayNode node(int index) {
    return nodes.get(index);
  }

  public List<GatewayNode> nodes() {
    return nodes;
  }

  /** A client of node {@code index}. */
  public GatewayClient client(int index) {
    return node(index).client();
  }

  /** Starts every node that is not running and waits until all answer. */
  public void startAll(Duration timeout) {
    for (var node : nodes) {
      if (!node.isAlive()) {
        node.start();
      }
    }
    for (var node : nodes) {
      node.awaitReady(timeout);
    }
  }

  /** Stops every node in order (SIGTERM); a dead one is skipped. */
  @Override
  public void close() {
    for (var node : nodes) {
      node.stop();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to
    }
  }

  /** What every node shares; each gets its own directory and ports. */
  public static final class Builder {
    private final String databaseUrl;
    private final String databaseUser;
    private final TestIssuer issuer;
    private int count = 1;
    private String teams = "{}";
    private String backends = "[]";
    private String resyncInterval = "500ms";
    private String lease = "30s";
    private String shutdownGracePeriod = "30s";
    private String hmacKey;
    private String reconcilerYaml = "";
    private String extraYaml = "";
    private Path jar = Path.of(System.getProperty("trainyard.gateway.jar", "target/trainyard.jar"));
    private List<String> jvmOptions =
        List.of("-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private Map<String, String> environment = Map.of();
    private Path dir;

    private Builder(String databaseUrl, String databaseUser, TestIssuer issuer) {
      this.databaseUrl = databaseUrl;
      this.databaseUser = databaseUser;
      this.issuer = issuer;
    }

    public Builder nodes(int count) {
      this.count = count;
      return this;
    }

    /** The {@code teams:} block's value, as YAML (flow style, or block lines indented by 2). */
    public Builder teams(String yaml) {
      this.teams = yaml;
      return this;
    }

    /** The {@code backends:} block's value, as YAML (a flow list, or block lines indented by 2). */
    public Builder backends(String yaml) {
      this.backends = yaml;
      return this;
    }

    public Builder resyncInterval(String duration) {
      this.resyncInterval = duration;
      return this;
    }

    /** {@code reconciler.lease}: how long a killed node's jobs wait for another (default 30s). */
    public Builder lease(String duration) {
      this.lease = duration;
      return this;
    }

    /** More {@code reconciler:} keys, verbatim, e.g. {@code "submitTries: 100"}. */
    public Builder reconciler(String yaml) {
      this.reconcilerYaml = yaml;
      return this;
    }

    /** {@code server.shutdownGracePeriod}: how long a stopping node finishes in-flight requests. */
    public Builder shutdownGracePeriod(String duration) {
      this.shutdownGracePeriod = duration;
      return this;
    }

    /**
     * {@code audit.hmacKey} (base64), for a cluster on a database whose audit trail was written
     * with it (a snapshot); default: a new random key. The signing key is taken from {@link #dir}
     * when a file is there already.
     */
    public Builder hmacKey(String base64) {
      this.hmacKey = base64;
      return this;
    }

    /** More top-level keys, verbatim (no {@code teams}, {@code backends} or {@code reconciler}). */
    public Builder extraYaml(String yaml) {
      this.extraYaml = yaml;
      return this;
    }

    public Builder jar(Path jar) {
      this.jar = jar;
      return this;
    }

    public Builder jvmOptions(List<String> options) {
      this.jvmOptions = List.copyOf(options);
      return this;
    }

    /**
     * Environment variables every node gets beyond {@code PATH} and {@code HOME} (a pod's {@code
     * KUBERNETES_SERVICE_HOST}, say); nothing else of the build's environment reaches a node.
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(environment);
      return this;
    }

    /** Where the nodes' directories go (default: a new temporary directory). */
    public Builder dir(Path dir) {
      this.dir = dir;
      return this;
    }

    /** Writes every node's configuration without starting anything. */
    public GatewayCluster build() {
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException(
            "no gateway jar at "
                + jar.toAbsolutePath()
                + ": run the package phase first (mvn -B -pl gateway -am package), or point"
                + " -Dtrainyard.gateway.jar at one");
      }
      try {
        var root = dir != null ? dir : Files.createTempDirectory("trainyard-cluster-");
        // Outside dev mode the audit keys are configuration: one set for the whole cluster.
        DigestSigner.loadOrGenerate(root);
        var hmac = new byte[32];
        new SecureRandom().nextBytes(hmac);
        var hmacKey =
            this.hmacKey != null ? this.hmacKey : Base64.getEncoder().encodeToString(hmac);
        var nodes = new ArrayList<GatewayNode>();
        for (int i = 0; i < count; i++) {
          var name = "gw" + i;
          var nodeDir = Files.createDirectories(root.resolve(name));
          int app = freePort();
          int admin = freePort();
          var config = nodeDir.resolve("trainyard.yml");
          Files.writeString(config, yaml(nodeDir, root, hmacKey, app, admin));
          nodes.add(
              new GatewayNode(
                  name,
                  jar.toAbsolutePath(),
                  nodeDir,
                  config,
                  app,
                  admin,
                  jvmOptions,
                  environment));
        }
        return new GatewayCluster(nodes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** {@link #build()}, then starts every node and waits (up to 2 minutes) until all answer. */
    public GatewayCluster start() {
      var cluster = build();
      try {
        cluster.startAll(Duration.ofMinutes(2));
      } catch (RuntimeException | AssertionError e) {
        cluster.close();
        throw e;
      }
      return cluster;
    }

    private String yaml(Path nodeDir, Path root, String hmacKey, int app, int admin) {
      return """
          dataDir: %s
          database:
            url: "%s"
            user: %s
            password: ""
          audit:
            signingKeyFile: %s
            hmacKey: %s
          auth:
            mode: oidc
            issuer: %s
            audience: trainyard
          reconciler:
            resyncInterval: %s
            lease: %s
            %s
          server:
            shutdownGracePeriod: %s
            applicationConnectors: [{type: http, port: %d, bindHost: 127.0.0.1}]
            adminConnectors: [{type: http, port: %d, bindHost: 127.0.0.1}]
          teams:
            %s
          backends:
            %s
          %s
          """
          .formatted(
              nodeDir,
              databaseUrl,
              databaseUser,
              root.resolve(DigestSigner.PRIVATE_KEY_FILE),
              hmacKey,
              issuer.issuer(),
              resyncInterval,
              lease,
              reconcilerYaml.strip().replace("\n", "\n  "),
              shutdownGracePeriod,
              app,
              admin,
              teams.strip().replace("\n", "\n  "),
              backends.strip().replace("\n", "\n  "),
              extraYaml);
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
