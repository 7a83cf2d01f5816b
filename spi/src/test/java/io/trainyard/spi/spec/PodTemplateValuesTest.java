package io.trainyard.spi.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pod template's values are refused at validation when the Kubernetes API server would refuse
 * them, naming the field; realistic templates pass untouched.
 */
class PodTemplateValuesTest {
  private static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: demo}
      spec:
        framework: pytorch
        image: python:3.11
        replicas: {master: 1, worker: 2}
      """;

  private final JobSpecValidator validator = new JobSpecValidator();

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          {volumes: [{name: x, emptyDir: {sizeLimit: NaN}}]}                            | volumes[0].emptyDir.sizeLimit | must be a Kubernetes quantity (e.g. 1Gi), was "NaN"
          {volumes: [{name: x, emptyDir: {sizeLimit: -1Gi}}]}                           | volumes[0].emptyDir.sizeLimit | of 0 or more, was "-1Gi"
          {volumes: [{name: x, emptyDir: {medium: Disk}}]}                              | volumes[0].emptyDir.medium | Memory, HugePages
          {affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1000, preference: {matchExpressions: [{key: a, operator: Exists}]}}]}}} | affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | a weight from 1 to 100, was 1000
          {affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, podAffinityTerm: {topologyKey: zone}}]}}} | affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight | from 1 to 100, was 0
          {affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: a}}}]}}} | affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey | is required
          {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Near, values: [a]}]}]}}}} | affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator | one of In, NotIn, Exists, DoesNotExist, Gt, Lt, was "Near"
          {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: []}]}]}}}} | affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values | at least one value when operator is In
          {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: gpus, operator: Gt, values: [many]}]}]}}}} | affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values | exactly one whole number
          {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.labels, operator: In, values: [a]}]}]}}}} | affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key | one of metadata.name
          {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}} | affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms | at least 1 entry
          {affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {matchExpressions: [{key: app, operator: Exists, values: [a]}]}}]}}} | affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values | must be empty when operator is Exists
          {affinity: []}                                                                | affinity | must be an object, was a list
          {tolerations: [{key: a, operator: Maybe}]}                                    | tolerations[0].operator | one of "", Exists, Equal, Lt, Gt, was "Maybe"
          {tolerations: [{key: a, effect: Sometimes}]}                                  | tolerations[0].effect | one of "", NoSchedule, PreferNoSchedule, NoExecute
          {tolerations: [{operator: Equal, value: x}]}                                  | tolerations[0].operator | must be Exists when key is empty
          {tolerations: [{key: a, operator: Exists, value: x}]}                         | tolerations[0].value | empty when operator is Exists
          {tolerations: [{key: a, value: 'two words'}]}                                 | tolerations[0].value | a label value
          {tolerations: [{key: a, effect: NoSchedule, tolerationSeconds: 30}]}          | tolerations[0].effect | NoExecute when tolerationSeconds is set, was "NoSchedule"
          {tolerations: [{key: a, operator: Exists, tolerationSeconds: soon}]}          | tolerations[0].tolerationSeconds | a whole number, was "soon"
          {tolerations: {key: a}}                                                       | tolerations | must be a list, was an object
          {terminationGracePeriodSeconds: -5}                                           | terminationGracePeriodSeconds | >= 0, was -5
          {terminationGracePeriodSeconds: '30'}                                         | terminationGracePeriodSeconds | was "30"
          {terminationGracePeriodSeconds: 1.5}                                          | terminationGracePeriodSeconds | was 1.5
          {nodeSelector: {a: {b: 1}}}                                                   | nodeSelector.a | must be a string, was an object
          {nodeSelector: {gpu: true}}                                                   | nodeSelector.gpu | must be a string (quote it), was true
          {nodeSelector: {pool: 'two words'}}                                           | nodeSelector.pool | a label value
          {nodeSelector: {'bad key!': x}}                                               | nodeSelector.bad key! | is not a label key
          {containers: [{name: pytorch, ports: [{containerPort: 99999}]}]}              | containers[0].ports[0].containerPort | a port number from 1 to 65535, was 99999
          {containers: [{name: pytorch, ports: [{containerPort: 80, hostPort: 70000}]}]} | containers[0].ports[0].hostPort | from 0 (none) to 65535, was 70000
          {containers: [{name: pytorch, ports: [{containerPort: 80, protocol: HTTP}]}]} | containers[0].ports[0].protocol | one of TCP, UDP, SCTP
          {containers: [{name: pytorch, ports: [{containerPort: 80, name: Metrics_Port}]}]} | containers[0].ports[0].name | a port name
          {containers: [{name: pytorch, ports: [{name: http}]}]}                        | containers[0].ports[0].containerPort | is required
          {containers: [{name: pytorch, ports: [{containerPort: 80, name: m}, {containerPort: 81, name: m}]}]} | containers[0].ports[1].name | 'm' is used twice
          {containers: [{name: side, image: x, resources: {limits: {cpu: lots}}}]}      | containers[0].resources.limits.cpu | must be a Kubernetes quantity (e.g. 1Gi), was "lots"
          {containers: [{name: side, image: x, resources: {requests: {cpu: 2}, limits: {cpu: 1}}}]} | containers[0].resources.requests.cpu | at most its limit of 1, was 2
          {containers: [{name: side, image: x, resources: {requests: {nvidia.com/gpu: 1}}}]} | containers[0].resources.requests.nvidia.com/gpu | needs the same value in limits
          {containers: [{name: side, image: x, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}}]} | containers[0].resources.requests.nvidia.com/gpu | equal to its limit
          {containers: [{name: side, image: x, resources: {limits: {nvidia.com/gpu: 0.5}}}]} | containers[0].resources.limits.nvidia.com/gpu | a whole number (nvidia.com/gpu is counted in units), was 0.5
          {containers: [{name: side, image: x, resources: {limits: {hugepages-2Mi: 1Gi}, requests: {hugepages-2Mi: 512Mi}}}]} | containers[0].resources.requests.hugepages-2Mi | equal to its limit
          {containers: [{name: side, image: x, resources: {limits: {gpu: 1}}}]}         | containers[0].resources.limits.gpu | is not a resource a container can ask for
          {containers: [{name: side, image: x, env: [{name: A, value: 1}]}]}            | containers[0].env[0].value | must be a string (quote it), was 1
          {containers: [{name: side, image: x, readinessProbe: {periodSeconds: -1, tcpSocket: {port: 80}}}]} | containers[0].readinessProbe.periodSeconds | >= 0, was -1
          {containers: [{name: side, image: x, startupProbe: {httpGet: {port: 0}}}]}   | containers[0].startupProbe.httpGet.port | from 1 to 65535, was 0
          {containers: [{name: side, image: x, startupProbe: {httpGet: {port: Http}}}]} | containers[0].startupProbe.httpGet.port | a port number from 1 to 65535 or a port name
          {containers: [{name: pytorch, imagePullPolicy: always}]}                      | containers[0].imagePullPolicy | one of Always, Never, IfNotPresent, was "always"
          {containers: [{name: pytorch, securityContext: {capabilities: {add: IPC_LOCK}}}]} | containers[0].securityContext.capabilities.add | must be a list, was "IPC_LOCK"
          {containers: [{name: pytorch, volumeMounts: [{name: d, mountPath: /d, subPath: ../etc}]}]} | containers[0].volumeMounts[0].subPath | a relative path without '..'
          {containers: [{name: pytorch, volumeMounts: [{name: d}]}]}                    | containers[0].volumeMounts[0].mountPath | is required
          {containers: [{name: a, image: x}, {name: a, image: y}]}                      | containers[1].name | 'a' is used twice
          {containers: [{image: x}]}                                                    | containers[0].name | is required
          {initContainers: [{name: Init_1, image: x}]}                                  | initContainers[0].name | a DNS-1123 label
          {initContainers: [{name: init, image: x, restartPolicy: Sometimes}]}          | initContainers[0].restartPolicy | one of Always, Never, OnFailure
          {resources: {limits: {memory: -1Gi}}}                                         | resources.limits.memory | of 0 or more
          {resources: {limits: {cpu: 2}, requests: {cpu: 4}}}                           | resources.requests.cpu | at most its limit of 2, was 4
          {volumes: [{name: data, emptyDir: {}}, {name: data, emptyDir: {}}]}           | volumes[1].name | 'data' is used twice
          {volumes: [{name: Data, emptyDir: {}}]}                                       | volumes[0].name | a DNS-1123 label: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit, was "Data"
          {volumes: [{name: d}]}                                                        | volumes[0] | must name its source
          {volumes: [{name: d, emptyDir: {}, persistentVolumeClaim: {claimName: c}}]}   | volumes[0] | names 2 sources (emptyDir, persistentVolumeClaim)
          {volumes: [{name: d, persistentVolumeClaim: {}}]}                             | volumes[0].persistentVolumeClaim.claimName | is required
          {volumes: [{name: d, persistentVolumeClaim: {claimName: c, readOnly: 'yes'}}]} | volumes[0].persistentVolumeClaim.readOnly | true or false, was "yes"
          {volumes: [{name: d, secret: {secretName: s, defaultMode: 1000}}]}            | volumes[0].secret.defaultMode | a file mode from 0 to 0777
          {volumes: [{name: d, configMap: {name: s, items: [{key: k, path: ../x}]}}]}  | volumes[0].configMap.items[0].path | a relative path without '..'
          {volumes: [{name: d, hostPath: {path: /x, type: Folder}}]}                    | volumes[0].hostPath.type | one of "", DirectoryOrCreate
          {volumes: [{name: d, fc: {lun: 2147483648}}]}                                 | volumes[0].fc.lun | a whole number (32-bit), was 2147483648
          {volumes: [{name: d, projected: {sources: [{serviceAccountToken: {path: t, expirationSeconds: 60}}]}}]} | volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds | from 600
          {volumes: [{name: d, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: big}}}}}}]} | volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.storage | a Kubernetes quantity
          {volumes: [{name: d, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteSometimes]}}}}]} | volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes[0] | one of ReadWriteOnce
          {securityContext: {runAsUser: -1}}                                            | securityContext.runAsUser | an ID from 0 to 2147483647, was -1
          {securityContext: {fsGroup: 3000000000}}                                      | securityContext.fsGroup | an ID from 0 to 2147483647
          {securityContext: {supplementalGroups: [1000, x]}}                            | securityContext.supplementalGroups[1] | an ID
          {securityContext: {seccompProfile: {type: Localhost}}}                        | securityContext.seccompProfile.localhostProfile | is required when type is Localhost
          {securityContext: {seccompProfile: {type: Default}}}                          | securityContext.seccompProfile.type | one of Unconfined, RuntimeDefault, Localhost
          {securityContext: {runAsNonRoot: 'true'}}                                     | securityContext.runAsNonRoot | true or false, was "true"
          {hostNetwork: 'true'}                                                         | hostNetwork | true or false
          {dnsPolicy: ClusterFirstt}                                                    | dnsPolicy | one of ClusterFirstWithHostNet, ClusterFirst, Default, None
          {dnsConfig: {nameservers: [1.1.1.1, 8.8.8.8, 9.9.9.9, 1.0.0.1]}}              | dnsConfig.nameservers | at most 3
          {dnsConfig: {nameservers: [dns.local]}}                                       | dnsConfig.nameservers[0] | an IPv4 or IPv6 address
          {hostAliases: [{ip: 300.1.1.1, hostnames: [a]}]}                              | hostAliases[0].ip | an IPv4 or IPv6 address
          {preemptionPolicy: Always}                                                    | preemptionPolicy | one of PreemptLowerPriority, Never
          {os: {name: macos}}                                                           | os.name | one of linux, windows
          {priorityClassName: High_Prio}                                                | priorityClassName | a DNS-1123 subdomain
          {serviceAccountName: 7}                                                       | serviceAccountName | a string (quote it), was 7
          {topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]} | topologySpreadConstraints[0].maxSkew | >= 1, was 0
          {topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Never}]} | topologySpreadConstraints[0].whenUnsatisfiable | one of DoNotSchedule, ScheduleAnyway
          {topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}]} | topologySpreadConstraints[0].minDomains | applies only when whenUnsatisfiable is DoNotSchedule
          {topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]} | topologySpreadConstraints[0].topologyKey | is required
          {resourceClaims: [{name: gpu, resourceClaimName: a, resourceClaimTemplateName: b}]} | resourceClaims[0] | not both
          {metadata: {labels: {app: 'two words'}}}                                      | metadata.labels.app | a label value
          {metadata: {annotations: {'bad key': x}}}                                     | metadata.annotations.bad key | is not an annotation key
          {metadata: {annotations: {note: 5}}}                                          | metadata.annotations.note | a string (quote it), was 5
          """)
  void refusesWithTheFieldNamed(String template, String field, String message) {
    var errors = validator.validate(Specs.parse(job(template)));
    assertThat(errors)
        .anySatisfy(
            e -> {
              assertThat(e.field()).isEqualTo("spec.kubernetes.podTemplate." + field);
              assertThat(e.message()).contains(message);
            });
  }

  @Test
  void aRolesTemplateIsCheckedUnderItsOwnPath() {
    var errors =
        validator.validate(
            Specs.parse(
                JOB
                    + "  roles:\n    worker:\n      kubernetes:\n        podTemplate:"
                    + " {tolerations: [{key: a, operator: Maybe}]}\n"));
    assertThat(errors)
        .containsExactly(
            new FieldError(
                "spec.roles.worker.kubernetes.podTemplate.tolerations[0].operator",
                "must be one of \"\", Exists, Equal, Lt, Gt, was \"Maybe\""));
  }

  @Test
  void aLongValueIsShownCutAndOnOneLine() {
    var errors =
        validator.validate(
            Specs.parse(
                job(
                    "{volumes: [{name: x, emptyDir: {sizeLimit: \""
                        + "9".repeat(30)
                        + "\\n"
                        + "x".repeat(30)
                        + "\"}}]}")));
    assertThat(errors)
        .extracting(FieldError::message)
        .containsExactly(
            "must be a Kubernetes quantity (e.g. 1Gi), was \""
                + "9".repeat(30)
                + "?"
                + "x".repeat(9)
                + "...\"");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    var errors =
        validator.validate(
            Specs.parse(
                job(
                    "{terminationGracePeriodSeconds: -1, dnsPolicy: x, volumes: [{name: v,"
                        + " emptyDir: {sizeLimit: y}}], tolerations: [{key: a, operator: b}]}")));
    assertThat(errors)
        .extracting(FieldError::field)
        .containsExactlyInAnyOrder(
            "spec.kubernetes.podTemplate.terminationGracePeriodSeconds",
            "spec.kubernetes.podTemplate.dnsPolicy",
            "spec.kubernetes.podTemplate.volumes[0].emptyDir.sizeLimit",
            "spec.kubernetes.podTemplate.tolerations[0].operator");
  }

  /** Fields a newer cluster may know are never refused. */
  @Test
  void unknownFieldsAreLeftToTheCluster() {
    assertThat(
            validator.validate(
                Specs.parse(
                    job(
                        "{futureField: {x: 1}, volumes: [{name: v, futureSource: {a: 1}}],"
                            + " containers: [{name: pytorch, futureKnob: 3}]}"))))
        .isEmpty();
  }

  @Test
  void numbersOfEveryJavaTypeAreReadAsTheirValue() {
    var errors = new ArrayList<FieldError>();
    PodTemplateValues.check(
        "t",
        Map.of(
            "terminationGracePeriodSeconds",
            30L,
            "affinity",
            Map.of(
                "nodeAffinity",
                Map.of(
                    "preferredDuringSchedulingIgnoredDuringExecution",
                    List.of(
                        Map.of(
                            "weight", new java.math.BigInteger("101"), "preference", Map.of())))),
            "volumes",
            List.of(Map.of("name", "v", "emptyDir", Map.of("sizeLimit", 1.5e9)))),
        errors);
    assertThat(errors)
        .containsExactly(
            new FieldError(
                "t.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
                "must be a weight from 1 to 100, was 101"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // testkit ContractSpecs, full-spec.yaml and the backends' tests
        "{nodeSelector: {pool: a10g}}",
        "{nodeSelector: {pool: a100}, tolerations: [{key: nvidia.com/gpu, effect: NoSchedule}]}",
        "{tolerations: [{key: gpu}]}",
        "{priorityClassName: batch, imagePullSecrets: [{name: regcred}]}",
        "{nodeSelector: {eks.amazonaws.com/capacityType: SPOT}}",
        "{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms:"
            + " [{matchExpressions: [{key: pool, operator: Exists}, {key: gpu-count, operator: Gt,"
            + " values: [\"0\"]}]}]}}}}",
        // Kubeflow golden documents
        "{metadata: {labels: {app: tf-resnet-spread}}, nodeSelector: {node.kubernetes.io/instance-type:"
            + " g5.12xlarge}, tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}],"
            + " affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight:"
            + " 100, podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels:"
            + " {app: tf-resnet-spread}}}}]}}}",
        "{volumes: [{name: imagenet, persistentVolumeClaim: {claimName: imagenet-ro, readOnly: true}},"
            + " {name: dshm, emptyDir: {medium: Memory, sizeLimit: 16Gi}}], containers: [{name: pytorch,"
            + " volumeMounts: [{name: imagenet, mountPath: /datasets/imagenet, readOnly: true}, {name:"
            + " dshm, mountPath: /dev/shm}]}]}",
        "{metadata: {annotations: {k8s.v1.cni.cncf.io/networks: sriov-roce}}, containers: [{name:"
            + " pytorch, resources: {requests: {nvidia.com/gpu: 8, intel.com/sriov_netdevice: 1,"
            + " rdma/rdma_shared_device_a: 1, cpu: 32, memory: 256Gi}, limits: {nvidia.com/gpu: 8,"
            + " intel.com/sriov_netdevice: 1, rdma/rdma_shared_device_a: 1, cpu: 32, memory: 256Gi}},"
            + " securityContext: {capabilities: {add: [IPC_LOCK]}}}]}",
        "{initContainers: [{name: fetch-data, image: 'amazon/aws-cli:2.15.0', command: [aws, s3, sync,"
            + " 's3://example-datasets/cifar10', /data], volumeMounts: [{name: data, mountPath: /data}]}],"
            + " volumes: [{name: data, emptyDir: {}}, {name: logs, emptyDir: {}}], containers: [{name:"
            + " pytorch, volumeMounts: [{name: data, mountPath: /data}]}, {name: tb-shipper, image:"
            + " 'registry.example.com/tools/tb-shipper:0.4', args: [--watch, /logs]}]}",
        // Everything a careful author writes
        "{hostNetwork: true, dnsPolicy: ClusterFirstWithHostNet, terminationGracePeriodSeconds: 0,"
            + " schedulerName: volcano, serviceAccountName: trainer, automountServiceAccountToken: false,"
            + " enableServiceLinks: false, shareProcessNamespace: true, preemptionPolicy: Never,"
            + " runtimeClassName: nvidia, os: {name: linux}, setHostnameAsFQDN: false, hostIPC: true}",
        "{securityContext: {runAsUser: 1000, runAsGroup: 0, fsGroup: 2000, runAsNonRoot: true,"
            + " supplementalGroups: [4000], fsGroupChangePolicy: OnRootMismatch, seccompProfile: {type:"
            + " RuntimeDefault}, sysctls: [{name: net.core.somaxconn, value: '1024'}], appArmorProfile:"
            + " {type: Localhost, localhostProfile: k8s-apparmor}}}",
        "{topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone,"
            + " whenUnsatisfiable: DoNotSchedule, minDomains: 2, labelSelector: {matchExpressions: [{key:"
            + " app, operator: In, values: [bert]}]}, nodeTaintsPolicy: Honor, matchLabelKeys:"
            + " [pod-template-hash]}]}",
        "{dnsConfig: {nameservers: [10.0.0.10, 'fd00::a'], searches: [ns.svc.cluster.local.], options:"
            + " [{name: ndots, value: '2'}]}, hostAliases: [{ip: 10.1.2.3, hostnames: [etcd.local]}]}",
        "{tolerations: [{operator: Exists}, {key: spot, operator: Equal, value: 'true', effect:"
            + " NoExecute, tolerationSeconds: -1}]}",
        "{resources: {limits: {cpu: 8, memory: 64Gi, hugepages-2Mi: 1Gi}, requests: {cpu: 500m, memory:"
            + " 129e6, hugepages-2Mi: 1Gi}}, resourceClaims: [{name: gpu, resourceClaimTemplateName:"
            + " a100}]}",
        "{volumes: [{name: s, secret: {secretName: creds, defaultMode: 0400, items: [{key: token,"
            + " path: t/token, mode: 256}]}}, {name: c, configMap: {name: cfg, optional: true}}, {name:"
            + " p, projected: {sources: [{serviceAccountToken: {audience: sts, expirationSeconds: 3600,"
            + " path: token}}, {downwardAPI: {items: [{path: labels, fieldRef: {fieldPath:"
            + " metadata.labels}}, {path: mem, resourceFieldRef: {containerName: pytorch, resource:"
            + " limits.memory, divisor: 1Mi}}]}}]}}, {name: h, hostPath: {path: /dev/infiniband, type:"
            + " Directory}}, {name: n, nfs: {server: nfs.local, path: /exports}}, {name: e, ephemeral:"
            + " {volumeClaimTemplate: {metadata: {labels: {a: b}}, spec: {accessModes: [ReadWriteOnce],"
            + " storageClassName: fast, resources: {requests: {storage: 100Gi}}}}}}, {name: k, csi:"
            + " {driver: s3.csi.aws.com, volumeAttributes: {bucketName: b}}}, {name: i, image:"
            + " {reference: 'model:1', pullPolicy: IfNotPresent}}]}",
        "{containers: [{name: pytorch, ports: [{containerPort: 29500, name: c10d, protocol: TCP},"
            + " {containerPort: 8080, hostPort: 0}], workingDir: /w, imagePullPolicy: Always,"
            + " terminationMessagePolicy: FallbackToLogsOnError, volumeDevices: [{name: raw,"
            + " devicePath: /dev/xvda}]}, {name: exporter, image: 'prom/node-exporter:v1.8.1',"
            + " env: [{name: A, value: '1'}, {name: POD, valueFrom: {fieldRef: {fieldPath:"
            + " metadata.name}}}], livenessProbe: {httpGet: {path: /, port: metrics, scheme: HTTP},"
            + " periodSeconds: 10, failureThreshold: 3}, resources: {requests: {cpu: 100m, memory:"
            + " 64Mi}, limits: {memory: 128Mi}}, lifecycle: {preStop: {sleep: {seconds: 5}}}}],"
            + " initContainers: [{name: proxy, image: envoy, restartPolicy: Always, startupProbe:"
            + " {tcpSocket: {port: 15000}}}]}",
        "{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1,"
            + " preference: {matchFields: [{key: metadata.name, operator: NotIn, values: [bad-node]}]}}]},"
            + " podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone,"
            + " namespaceSelector: {}, labelSelector: {matchExpressions: [{key: app, operator:"
            + " DoesNotExist}]}}]}}}",
      })
  void acceptsRealisticTemplates(String template) {
    assertThat(validator.validate(Specs.parse(job(template)))).isEmpty();
  }

  @Test
  void theFullSpecPasses() {
    assertThat(validator.validate(Specs.resource("full-spec.yaml"))).isEmpty();
  }

  private static String job(String template) {
    return JOB + "  kubernetes:\n    podTemplate: " + template + "\n";
  }
}
