package io.trainyard.spi.spec;

import static io.trainyard.spi.spec.PodSpecFields.ANNOTATIONS;
import static io.trainyard.spi.spec.PodSpecFields.DESCENDING_PATH;
import static io.trainyard.spi.spec.PodSpecFields.DNS_LABEL;
import static io.trainyard.spi.spec.PodSpecFields.FLAG;
import static io.trainyard.spi.spec.PodSpecFields.INT32;
import static io.trainyard.spi.spec.PodSpecFields.INT64;
import static io.trainyard.spi.spec.PodSpecFields.LABELS;
import static io.trainyard.spi.spec.PodSpecFields.LABEL_SELECTOR;
import static io.trainyard.spi.spec.PodSpecFields.LOCAL_REFERENCE;
import static io.trainyard.spi.spec.PodSpecFields.MODE;
import static io.trainyard.spi.spec.PodSpecFields.QUANTITY;
import static io.trainyard.spi.spec.PodSpecFields.STRINGS;
import static io.trainyard.spi.spec.PodSpecFields.STRING_MAP;
import static io.trainyard.spi.spec.PodSpecFields.TEXT;
import static io.trainyard.spi.spec.PodSpecFields.list;
import static io.trainyard.spi.spec.PodSpecFields.object;
import static io.trainyard.spi.spec.PodSpecFields.oneOf;

import io.trainyard.spi.spec.PodField.Fields;
import io.trainyard.spi.spec.PodField.Items;
import io.trainyard.spi.spec.PodField.Whole;
import java.util.Map;

/**
 * The {@code core/v1} {@code Volume} part of {@link PodSpecFields}' table: a volume's name and its
 * one source, each source's fields as Kubernetes declares them (the in-tree cloud disks included: a
 * cluster may still serve them). Stateless; built once.
 */
final class PodVolumeFields {
  private static final Fields KEY_TO_PATH =
      object("key", TEXT, "path", DESCENDING_PATH, "mode", MODE, "user", INT64)
          .requiring("key", "path");
  private static final Fields DOWNWARD_FILE =
      object(
              "path", DESCENDING_PATH,
              "fieldRef", object("apiVersion", TEXT, "fieldPath", TEXT).requiring("fieldPath"),
              "resourceFieldRef",
                  object("containerName", TEXT, "resource", TEXT, "divisor", QUANTITY)
                      .requiring("resource"),
              "mode", MODE,
              "user", INT64)
          .requiring("path");
  private static final Fields PVC_SPEC =
      object(
          "accessModes",
              list(oneOf("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod")),
          "selector", LABEL_SELECTOR,
          "resources",
              object(
                  "limits", new PodField.Entries(null, null, QUANTITY, null),
                  "requests", new PodField.Entries(null, null, QUANTITY, null)),
          "volumeName", TEXT,
          "storageClassName", TEXT,
          "volumeMode", oneOf("Block", "Filesystem"),
          "dataSource", object("apiGroup", TEXT, "kind", TEXT, "name", TEXT),
          "dataSourceRef", object("apiGroup", TEXT, "kind", TEXT, "name", TEXT, "namespace", TEXT),
          "volumeAttributesClassName", TEXT);
  private static final Fields PROJECTION =
      object(
          "secret", object("name", TEXT, "items", list(KEY_TO_PATH), "optional", FLAG),
          "configMap", object("name", TEXT, "items", list(KEY_TO_PATH), "optional", FLAG),
          "downwardAPI", object("items", list(DOWNWARD_FILE)),
          "serviceAccountToken",
              object(
                      "audience", TEXT,
                      "expirationSeconds",
                          new Whole(600, 1L << 32, "a whole number of seconds from 600 to 2^32"),
                      "path", DESCENDING_PATH,
                      "user", INT64)
                  .requiring("path"),
          "clusterTrustBundle",
              object(
                      "name", TEXT,
                      "signerName", TEXT,
                      "labelSelector", LABEL_SELECTOR,
                      "optional", FLAG,
                      "path", DESCENDING_PATH,
                      "user", INT64)
                  .requiring("path"),
          "podCertificate",
              object(
                  "signerName", TEXT,
                  "keyType", TEXT,
                  "maxExpirationSeconds", INT32,
                  "credentialBundlePath", TEXT,
                  "keyPath", TEXT,
                  "certificateChainPath", TEXT,
                  "userAnnotations", STRING_MAP,
                  "user", INT64));
  private static final Map<String, PodField> SOURCES =
      PodSpecFields.fields(
          "hostPath",
          object(
                  "path",
                  TEXT,
                  "type",
                  oneOf(
                      "",
                      "DirectoryOrCreate",
                      "Directory",
                      "FileOrCreate",
                      "File",
                      "Socket",
                      "CharDevice",
                      "BlockDevice"))
              .requiring("path"),
          "emptyDir",
          object(
              "medium",
              PodSpecFields.format(
                  m -> m.isEmpty() || m.equals("Memory") || m.startsWith("HugePages"),
                  "\"\", Memory, HugePages or HugePages-<size>"),
              "sizeLimit",
              QUANTITY),
          "gcePersistentDisk",
          object("pdName", TEXT, "fsType", TEXT, "partition", INT32, "readOnly", FLAG),
          "awsElasticBlockStore",
          object("volumeID", TEXT, "fsType", TEXT, "partition", INT32, "readOnly", FLAG),
          "gitRepo",
          object("repository", TEXT, "revision", TEXT, "directory", TEXT),
          "secret",
          object(
              "secretName", TEXT,
              "items", list(KEY_TO_PATH),
              "defaultMode", MODE,
              "optional", FLAG,
              "defaultUser", INT64),
          "nfs",
          object("server", TEXT, "path", TEXT, "readOnly", FLAG),
          "iscsi",
          object(
              "targetPortal", TEXT,
              "iqn", TEXT,
              "lun", INT32,
              "iscsiInterface", TEXT,
              "fsType", TEXT,
              "readOnly", FLAG,
              "portals", STRINGS,
              "chapAuthDiscovery", FLAG,
              "chapAuthSession", FLAG,
              "secretRef", LOCAL_REFERENCE,
              "initiatorName", TEXT),
          "glusterfs",
          object("endpoints", TEXT, "path", TEXT, "readOnly", FLAG),
          "persistentVolumeClaim",
          object("claimName", TEXT, "readOnly", FLAG).requiring("claimName"),
          "rbd",
          object(
              "monitors", STRINGS,
              "image", TEXT,
              "fsType", TEXT,
              "pool", TEXT,
              "user", TEXT,
              "keyring", TEXT,
              "secretRef", LOCAL_REFERENCE,
              "readOnly", FLAG),
          "flexVolume",
          object(
              "driver", TEXT,
              "fsType", TEXT,
              "secretRef", LOCAL_REFERENCE,
              "readOnly", FLAG,
              "options", STRING_MAP),
          "cinder",
          object("volumeID", TEXT, "fsType", TEXT, "readOnly", FLAG, "secretRef", LOCAL_REFERENCE),
          "cephfs",
          object(
              "monitors", STRINGS,
              "path", TEXT,
              "user", TEXT,
              "secretFile", TEXT,
              "secretRef", LOCAL_REFERENCE,
              "readOnly", FLAG),
          "flocker",
          object("datasetName", TEXT, "datasetUUID", TEXT),
          "downwardAPI",
          object("items", list(DOWNWARD_FILE), "defaultMode", MODE),
          "fc",
          object(
              "targetWWNs", STRINGS,
              "lun", INT32,
              "fsType", TEXT,
              "readOnly", FLAG,
              "wwids", STRINGS),
          "azureFile",
          object("secretName", TEXT, "shareName", TEXT, "readOnly", FLAG),
          "configMap",
          object(
              "name", TEXT,
              "items", list(KEY_TO_PATH),
              "defaultMode", MODE,
              "optional", FLAG,
              "defaultUser", INT64),
          "vsphereVolume",
          object(
              "volumePath", TEXT,
              "fsType", TEXT,
              "storagePolicyName", TEXT,
              "storagePolicyID", TEXT),
          "quobyte",
          object(
              "registry", TEXT,
              "volume", TEXT,
              "readOnly", FLAG,
              "user", TEXT,
              "group", TEXT,
              "tenant", TEXT),
          "azureDisk",
          object(
              "diskName", TEXT,
              "diskURI", TEXT,
              "cachingMode", oneOf("None", "ReadOnly", "ReadWrite"),
              "fsType", TEXT,
              "readOnly", FLAG,
              "kind", oneOf("Shared", "Dedicated", "Managed")),
          "photonPersistentDisk",
          object("pdID", TEXT, "fsType", TEXT),
          "projected",
          object("sources", list(PROJECTION), "defaultMode", MODE, "defaultUser", INT64),
          "portworxVolume",
          object("volumeID", TEXT, "fsType", TEXT, "readOnly", FLAG),
          "scaleIO",
          object(
              "gateway", TEXT,
              "system", TEXT,
              "secretRef", LOCAL_REFERENCE,
              "sslEnabled", FLAG,
              "protectionDomain", TEXT,
              "storagePool", TEXT,
              "storageMode", TEXT,
              "volumeName", TEXT,
              "fsType", TEXT,
              "readOnly", FLAG),
          "storageos",
          object(
              "volumeName", TEXT,
              "volumeNamespace", TEXT,
              "fsType", TEXT,
              "readOnly", FLAG,
              "secretRef", LOCAL_REFERENCE),
          "csi",
          object(
              "driver", TEXT,
              "readOnly", FLAG,
              "fsType", TEXT,
              "volumeAttributes", STRING_MAP,
              "nodePublishSecretRef", LOCAL_REFERENCE),
          "ephemeral",
          object(
              "volumeClaimTemplate",
              object(
                      "metadata",
                      object("labels", LABELS, "annotations", ANNOTATIONS),
                      "spec",
                      PVC_SPEC)
                  .requiring("spec")),
          "image",
          object("reference", TEXT, "pullPolicy", oneOf("Always", "Never", "IfNotPresent")));

  static final Fields VOLUME =
      object("name", DNS_LABEL)
          .with(SOURCES)
          .requiring("name")
          .ruledBy(PodSpecRules.oneSource(SOURCES.keySet()));

  private PodVolumeFields() {}

  /** {@code pod} with its {@code volumes}: names used once, each with one source. */
  static Fields withVolumes(Fields pod) {
    return pod.replacing("volumes", new Items(VOLUME, 0, PodSpecRules.unique("name")));
  }
}
