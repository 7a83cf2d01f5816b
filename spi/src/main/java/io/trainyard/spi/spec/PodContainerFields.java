package io.trainyard.spi.spec;

import static io.trainyard.spi.spec.PodSpecFields.DESCENDING_PATH;
import static io.trainyard.spi.spec.PodSpecFields.DNS_LABEL;
import static io.trainyard.spi.spec.PodSpecFields.FLAG;
import static io.trainyard.spi.spec.PodSpecFields.INT32;
import static io.trainyard.spi.spec.PodSpecFields.IP;
import static io.trainyard.spi.spec.PodSpecFields.NON_NEGATIVE_32;
import static io.trainyard.spi.spec.PodSpecFields.PORT;
import static io.trainyard.spi.spec.PodSpecFields.PORT_OR_NAME;
import static io.trainyard.spi.spec.PodSpecFields.QUANTITY;
import static io.trainyard.spi.spec.PodSpecFields.RESOURCE_LIST;
import static io.trainyard.spi.spec.PodSpecFields.SECURITY;
import static io.trainyard.spi.spec.PodSpecFields.STRINGS;
import static io.trainyard.spi.spec.PodSpecFields.TEXT;
import static io.trainyard.spi.spec.PodSpecFields.fields;
import static io.trainyard.spi.spec.PodSpecFields.format;
import static io.trainyard.spi.spec.PodSpecFields.list;
import static io.trainyard.spi.spec.PodSpecFields.object;
import static io.trainyard.spi.spec.PodSpecFields.oneOf;

import io.trainyard.spi.spec.PodField.Fields;
import io.trainyard.spi.spec.PodField.Items;
import io.trainyard.spi.spec.PodField.Whole;
import java.util.Map;

/**
 * The {@code core/v1} {@code Container} part of {@link PodSpecFields}' table: containers and init
 * containers (ports, env, resources, probes, mounts, ...) and the pod's own {@code resources}.
 * Stateless; built once.
 */
final class PodContainerFields {
  static final Fields RESOURCES =
      object(
              "limits", RESOURCE_LIST,
              "requests", RESOURCE_LIST,
              "claims", list(object("name", TEXT, "request", TEXT).requiring("name")))
          .ruledBy(PodSpecRules::resources);
  static final Fields KEY_SELECTOR =
      object("name", TEXT, "key", TEXT, "optional", FLAG).requiring("key");
  static final Fields ENV_VAR =
      object(
              "name", TEXT,
              "value", TEXT,
              "valueFrom",
                  object(
                      "fieldRef",
                          object("apiVersion", TEXT, "fieldPath", TEXT).requiring("fieldPath"),
                      "resourceFieldRef",
                          object("containerName", TEXT, "resource", TEXT, "divisor", QUANTITY)
                              .requiring("resource"),
                      "configMapKeyRef", KEY_SELECTOR,
                      "secretKeyRef", KEY_SELECTOR,
                      "fileKeyRef",
                          object("volumeName", TEXT, "path", TEXT, "key", TEXT, "optional", FLAG)))
          .requiring("name");
  static final Fields HTTP_GET =
      object(
              "path",
              TEXT,
              "port",
              PORT_OR_NAME,
              "host",
              TEXT,
              "scheme",
              oneOf("HTTP", "HTTPS"),
              "httpHeaders",
              list(object("name", TEXT, "value", TEXT).requiring("name")),
              "protocol",
              oneOf("HTTP1", "HTTP2"))
          .requiring("port");
  static final Fields EXEC = object("command", STRINGS);
  static final Fields TCP_SOCKET = object("port", PORT_OR_NAME, "host", TEXT).requiring("port");
  static final Fields PROBE =
      object(
          "exec", EXEC,
          "httpGet", HTTP_GET,
          "tcpSocket", TCP_SOCKET,
          "grpc",
              object("port", PORT, "service", TEXT, "mode", oneOf("Plaintext", "TLS"))
                  .requiring("port"),
          "initialDelaySeconds", NON_NEGATIVE_32,
          "timeoutSeconds", NON_NEGATIVE_32,
          "periodSeconds", NON_NEGATIVE_32,
          "successThreshold", NON_NEGATIVE_32,
          "failureThreshold", NON_NEGATIVE_32,
          "terminationGracePeriodSeconds", new Whole(1, Long.MAX_VALUE, "a whole number >= 1"));
  static final Fields HANDLER =
      object(
          "exec", EXEC,
          "httpGet", HTTP_GET,
          "tcpSocket", TCP_SOCKET,
          "sleep", object("seconds", new Whole(0, Long.MAX_VALUE, "a whole number >= 0")));
  static final Fields CONTAINER_PORT =
      object(
              "name",
              format(
                  PodFormats::isPortName,
                  "a port name: at most 15 lower-case letters, digits and '-', with a letter"),
              "hostPort",
              new Whole(0, 65535, "a port number from 0 (none) to 65535"),
              "containerPort",
              PORT,
              "protocol",
              oneOf("TCP", "UDP", "SCTP"),
              "hostIP",
              IP)
          .requiring("containerPort");
  static final Fields VOLUME_MOUNT =
      object(
              "name", TEXT,
              "readOnly", FLAG,
              "recursiveReadOnly", oneOf("Disabled", "IfPossible", "Enabled"),
              "mountPath", TEXT,
              "subPath", DESCENDING_PATH,
              "mountPropagation", oneOf("None", "HostToContainer", "Bidirectional"),
              "subPathExpr", DESCENDING_PATH,
              "bindMountOptions", STRINGS)
          .requiring("name", "mountPath");
  static final Fields CONTAINER =
      object(
              "name", DNS_LABEL,
              "image", TEXT,
              "command", STRINGS,
              "args", STRINGS,
              "workingDir", TEXT,
              "ports", new Items(CONTAINER_PORT, 0, PodSpecRules.unique("name")),
              "envFrom",
                  list(
                      object(
                          "prefix", TEXT,
                          "configMapRef", object("name", TEXT, "optional", FLAG),
                          "secretRef", object("name", TEXT, "optional", FLAG))),
              "env", list(ENV_VAR),
              "resources", RESOURCES,
              "resizePolicy",
                  list(
                      object(
                              "resourceName",
                              TEXT,
                              "restartPolicy",
                              oneOf("NotRequired", "RestartContainer"))
                          .requiring("resourceName", "restartPolicy")))
          .with(
              fields(
                  "restartPolicy",
                  oneOf("Always", "Never", "OnFailure"),
                  "restartPolicyRules",
                  list(
                      object(
                          "action", oneOf("Restart", "RestartAllContainers"),
                          "exitCodes",
                              object("operator", oneOf("In", "NotIn"), "values", list(INT32)))),
                  "volumeMounts",
                  new Items(VOLUME_MOUNT, 0, PodSpecRules.unique("mountPath")),
                  "volumeDevices",
                  list(object("name", TEXT, "devicePath", TEXT).requiring("name", "devicePath")),
                  "livenessProbe",
                  PROBE,
                  "readinessProbe",
                  PROBE,
                  "startupProbe",
                  PROBE,
                  "lifecycle",
                  object("postStart", HANDLER, "preStop", HANDLER, "stopSignal", TEXT),
                  "terminationMessagePath",
                  TEXT,
                  "terminationMessagePolicy",
                  oneOf("File", "FallbackToLogsOnError")))
          .with(
              fields(
                  "imagePullPolicy", oneOf("Always", "Never", "IfNotPresent"),
                  "securityContext", SECURITY,
                  "stdin", FLAG,
                  "stdinOnce", FLAG,
                  "tty", FLAG))
          .requiring("name");

  private PodContainerFields() {}

  /** {@code pod} with its containers, init containers (names used once) and pod resources. */
  static Fields withContainers(Fields pod) {
    return pod.with(
        Map.of(
            "initContainers", new Items(CONTAINER, 0, PodSpecRules.unique("name")),
            "containers", new Items(CONTAINER, 0, PodSpecRules.unique("name")),
            "resources", RESOURCES));
  }
}
