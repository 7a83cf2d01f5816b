package io.trainyard.backend.eks;

import io.trainyard.testkit.MotoServer;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;

/**
 * EKS clusters in moto, created with the real SDK; and the default credential chain pointed at
 * moto's test keys through system properties (the chain's first source), as an operator's
 * environment would.
 */
final class MotoEks {
  static final String REGION = "us-east-1";

  private MotoEks() {}

  /** The default chain finds {@code test}/{@code test}; call before building a backend. */
  static void useTestCredentials() {
    System.setProperty("aws.accessKeyId", "test");
    System.setProperty("aws.secretAccessKey", "test");
  }

  static Cluster createCluster(String name) {
    try (var eks =
        EksClient.builder()
            .httpClient(ApacheHttpClient.create())
            .region(Region.of(REGION))
            .endpointOverride(URI.create(MotoServer.endpoint()))
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
            .build()) {
      return eks.createCluster(
              r ->
                  r.name(name)
                      .roleArn("arn:aws:iam::123456789012:role/eks-cluster")
                      .resourcesVpcConfig(v -> v.subnetIds("subnet-1", "subnet-2")))
          .cluster();
    }
  }

  /** A block of this cluster whose EKS and STS endpoints are moto. */
  static String block(String id, String clusterName) {
    return """
        type: eks
        id: %s
        region: %s
        clusterName: %s
        eksEndpoint: %s
        stsEndpoint: %s
        admissionTimeout: 2m
        nodePools:
          - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, reserved: {cpus: 0.5, memory: 2Gi}}
          - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, labels: {pool: a10g}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
        """
        .formatted(id, REGION, clusterName, MotoServer.endpoint(), MotoServer.endpoint());
  }
}
