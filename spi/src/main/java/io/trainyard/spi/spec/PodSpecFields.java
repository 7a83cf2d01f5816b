package io.trainyard.spi.spec;

import io.trainyard.spi.spec.PodField.Fields;
import io.trainyard.spi.spec.PodField.Items;
import io.trainyard.spi.spec.PodField.Text;
import io.trainyard.spi.spec.PodField.Whole;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The table of Kubernetes' {@code core/v1} pod-spec types ({@code k8s.io/api/core/v1/types.go}):
 * for each field a pod template may carry, what it holds (object, list, string, whole number,
 * boolean, quantity) and the values the API server's validation accepts (ranges, enumerations, name
 * formats). Field names and types are Kubernetes' facts; enumerations list every value the newest
 * types declare, including those behind feature gates (a cluster may have them on). Stateless;
 * built once.
 */
final class PodSpecFields {
  static final String LABEL_VALUE_TEXT =
      "a label value: at most 63 letters, digits, '-', '_' or '.', starting and ending with a"
          + " letter or digit";
  private static final String QUALIFIED =
      "a qualified name: an optional DNS subdomain and '/', then at most 63 letters, digits, '-',"
          + " '_' or '.', starting and ending with a letter or digit";

  // Scalars.
  static final PodField TEXT = new Text(null, null);
  static final PodField FLAG = new PodField.Flag();
  static final PodField QUANTITY = new PodField.Quantity();
  static final PodField INT32 =
      new Whole(Integer.MIN_VALUE, Integer.MAX_VALUE, "a whole number (32-bit)");
  static final PodField INT64 = new Whole(Long.MIN_VALUE, Long.MAX_VALUE, "a whole number");
  static final PodField PORT = new Whole(1, 65535, "a port number from 1 to 65535");
  static final PodField PORT_OR_NAME = new PodField.PortOrName();
  static final PodField ID = new Whole(0, Integer.MAX_VALUE, "an ID from 0 to 2147483647");
  static final PodField MODE = new Whole(0, 0777, "a file mode from 0 to 0777 (511 in decimal)");
  static final PodField NON_NEGATIVE_32 = new Whole(0, Integer.MAX_VALUE, "a whole number >= 0");
  static final PodField POSITIVE_32 = new Whole(1, Integer.MAX_VALUE, "a whole number >= 1");
  static final PodField DNS_LABEL =
      format(
          PodFormats::isDnsLabel,
          "a DNS-1123 label: at most 63 lower-case letters, digits and '-', starting and ending"
              + " with a letter or digit");
  static final PodField SUBDOMAIN =
      format(PodFormats::isSubdomain, "a DNS-1123 subdomain (lower-case, at most 253 characters)");
  static final PodField QUALIFIED_NAME = format(PodFormats::isQualifiedName, QUALIFIED);
  static final PodField LABEL_VALUE = format(PodFormats::isLabelValue, LABEL_VALUE_TEXT);
  static final PodField IP = format(PodFormats::isIp, "an IPv4 or IPv6 address");
  static final PodField DESCENDING_PATH =
      format(PodFormats::isDescendingPath, "a relative path without '..'");
  static final PodField STRINGS = list(TEXT);
  static final PodField STRING_MAP = new PodField.Entries(null, null, TEXT, null);
  static final PodField LABELS =
      new PodField.Entries(
          PodFormats::isQualifiedName, "a label key: " + QUALIFIED, LABEL_VALUE, null);
  static final PodField ANNOTATIONS =
      new PodField.Entries(
          PodFormats::isQualifiedName,
          "an annotation key: " + QUALIFIED,
          TEXT,
          (at, m, errors) -> {
            long total = 0;
            for (var e : m.entrySet()) {
              total += String.valueOf(e.getKey()).length();
              total += e.getValue() instanceof String s ? s.length() : 0;
            }
            if (total > 256 * 1024) {
              errors.add(
                  new FieldError(at, "must be at most 256 KiB in all, as Kubernetes allows"));
            }
          });
  static final PodField RESOURCE_LIST =
      new PodField.Entries(
          PodFormats::isContainerResourceName,
          "a resource a container can ask for: cpu, memory, ephemeral-storage, hugepages-<size>"
              + " or a name with a domain (example.com/device)",
          QUANTITY,
          null);

  static final Fields LOCAL_REFERENCE = object("name", TEXT);

  // Selectors and scheduling.
  static final Fields LABEL_SELECTOR =
      object(
          "matchLabels",
          LABELS,
          "matchExpressions",
          list(
              object(
                      "key", QUALIFIED_NAME,
                      "operator", oneOf("In", "NotIn", "Exists", "DoesNotExist"),
                      "values", list(LABEL_VALUE))
                  .requiring("key", "operator")
                  .ruledBy(PodSpecRules::labelRequirement)));
  static final Fields NODE_SELECTOR_TERM =
      object(
          "matchExpressions",
              list(
                  object(
                          "key", QUALIFIED_NAME,
                          "operator", oneOf("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"),
                          "values", STRINGS)
                      .requiring("key", "operator")
                      .ruledBy(PodSpecRules::nodeRequirement)),
          "matchFields",
              list(
                  object(
                          "key", oneOf("metadata.name"),
                          "operator", oneOf("In", "NotIn"),
                          "values", STRINGS)
                      .requiring("key", "operator")
                      .ruledBy(PodSpecRules::fieldRequirement)));
  static final PodField WEIGHT = new Whole(1, 100, "a weight from 1 to 100");
  static final Fields POD_AFFINITY_TERM =
      object(
              "labelSelector", LABEL_SELECTOR,
              "namespaces", STRINGS,
              "topologyKey", QUALIFIED_NAME,
              "namespaceSelector", LABEL_SELECTOR,
              "matchLabelKeys", STRINGS,
              "mismatchLabelKeys", STRINGS)
          .requiring("topologyKey");
  static final Fields POD_AFFINITY =
      object(
          "requiredDuringSchedulingIgnoredDuringExecution", list(POD_AFFINITY_TERM),
          "preferredDuringSchedulingIgnoredDuringExecution",
              list(
                  object("weight", WEIGHT, "podAffinityTerm", POD_AFFINITY_TERM)
                      .requiring("weight", "podAffinityTerm")));
  static final Fields AFFINITY =
      object(
          "nodeAffinity",
              object(
                  "requiredDuringSchedulingIgnoredDuringExecution",
                      object("nodeSelectorTerms", new Items(NODE_SELECTOR_TERM, 1, null))
                          .requiring("nodeSelectorTerms"),
                  "preferredDuringSchedulingIgnoredDuringExecution",
                      list(
                          object("weight", WEIGHT, "preference", NODE_SELECTOR_TERM)
                              .requiring("weight", "preference"))),
          "podAffinity", POD_AFFINITY,
          "podAntiAffinity", POD_AFFINITY);
  static final Fields TOLERATION =
      object(
              "key",
                  format(
                      k -> k.isEmpty() || PodFormats.isQualifiedName(k),
                      "a taint key: " + QUALIFIED),
              "operator", oneOf("", "Exists", "Equal", "Lt", "Gt"),
              "value", TEXT,
              "effect", oneOf("", "NoSchedule", "PreferNoSchedule", "NoExecute"),
              // Negative seconds are read as 0 (evict at once): accepted.
              "tolerationSeconds", INT64)
          .ruledBy(PodSpecRules::toleration);
  static final Fields SPREAD_CONSTRAINT =
      object(
              "maxSkew", POSITIVE_32,
              "topologyKey", QUALIFIED_NAME,
              "whenUnsatisfiable", oneOf("DoNotSchedule", "ScheduleAnyway"),
              "labelSelector", LABEL_SELECTOR,
              "minDomains", POSITIVE_32,
              "nodeAffinityPolicy", oneOf("Honor", "Ignore"),
              "nodeTaintsPolicy", oneOf("Honor", "Ignore"),
              "matchLabelKeys", STRINGS)
          .requiring("maxSkew", "topologyKey", "whenUnsatisfiable")
          .ruledBy(PodSpecRules::spreadConstraint);

  // Security.
  static final Fields SE_LINUX = object("user", TEXT, "role", TEXT, "type", TEXT, "level", TEXT);
  static final Fields WINDOWS =
      object(
          "gmsaCredentialSpecName", TEXT,
          "gmsaCredentialSpec", TEXT,
          "runAsUserName", TEXT,
          "hostProcess", FLAG);
  static final Fields PROFILE =
      object("type", oneOf("Unconfined", "RuntimeDefault", "Localhost"), "localhostProfile", TEXT)
          .requiring("type")
          .ruledBy(PodSpecRules::profile);
  static final Fields POD_SECURITY =
      object(
              "seLinuxOptions", SE_LINUX,
              "windowsOptions", WINDOWS,
              "runAsUser", ID,
              "runAsGroup", ID,
              "runAsNonRoot", FLAG,
              "supplementalGroups", list(ID),
              "supplementalGroupsPolicy", oneOf("Merge", "Strict"),
              "fsGroup", ID,
              "sysctls", list(object("name", TEXT, "value", TEXT).requiring("name")),
              "fsGroupChangePolicy", oneOf("OnRootMismatch", "Always"))
          .with(
              Map.of(
                  "seccompProfile", PROFILE,
                  "appArmorProfile", PROFILE,
                  "seLinuxChangePolicy", oneOf("Recursive", "MountOption")));
  static final Fields SECURITY =
      object(
              "capabilities", object("add", STRINGS, "drop", STRINGS),
              "privileged", FLAG,
              "seLinuxOptions", SE_LINUX,
              "windowsOptions", WINDOWS,
              "runAsUser", ID,
              "runAsGroup", ID,
              "runAsNonRoot", FLAG,
              "readOnlyRootFilesystem", FLAG,
              "allowPrivilegeEscalation", FLAG,
              "procMount", oneOf("Default", "Unmasked"))
          .with(Map.of("seccompProfile", PROFILE, "appArmorProfile", PROFILE));

  /** The pod template's own fields: its metadata, and the pod spec's but containers and volumes. */
  static final Fields POD_TEMPLATE =
      object(
              "metadata", object("labels", LABELS, "annotations", ANNOTATIONS),
              "affinity", AFFINITY,
              "automountServiceAccountToken", FLAG,
              "dnsConfig",
                  object(
                          "nameservers", list(IP),
                          "searches",
                              list(format(PodFormats::isSearchDomain, "a DNS-1123 subdomain")),
                          "options", list(object("name", TEXT, "value", TEXT).requiring("name")))
                      .ruledBy(PodSpecRules::dnsConfig),
              "dnsPolicy", oneOf("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"),
              "enableServiceLinks", FLAG,
              "hostAliases", list(object("ip", IP, "hostnames", list(SUBDOMAIN)).requiring("ip")),
              "hostIPC", FLAG,
              "hostNetwork", FLAG,
              "hostPID", FLAG)
          .with(
              fields(
                  "hostUsers",
                  FLAG,
                  "imagePullSecrets",
                  list(LOCAL_REFERENCE),
                  "nodeSelector",
                  LABELS,
                  "os",
                  object("name", oneOf("linux", "windows")).requiring("name"),
                  "preemptionPolicy",
                  oneOf("PreemptLowerPriority", "Never"),
                  "priorityClassName",
                  SUBDOMAIN,
                  "resourceClaims",
                  new Items(
                      object(
                              "name", DNS_LABEL,
                              "resourceClaimName", SUBDOMAIN,
                              "resourceClaimTemplateName", SUBDOMAIN)
                          .requiring("name")
                          .ruledBy(PodSpecRules::resourceClaim),
                      0,
                      PodSpecRules.unique("name"))))
          .with(
              fields(
                  "runtimeClassName", SUBDOMAIN,
                  "schedulerName", TEXT,
                  "securityContext", POD_SECURITY,
                  "serviceAccountName", SUBDOMAIN,
                  "setHostnameAsFQDN", FLAG,
                  "shareProcessNamespace", FLAG,
                  "terminationGracePeriodSeconds",
                      new Whole(0, Long.MAX_VALUE, "a whole number of seconds >= 0"),
                  "tolerations", list(TOLERATION),
                  "topologySpreadConstraints",
                      new Items(SPREAD_CONSTRAINT, 0, PodSpecRules::uniqueSpread)));

  private PodSpecFields() {}

  /** Strings accepted by {@code valid}. */
  static PodField format(Predicate<String> valid, String expected) {
    return new Text(valid, expected);
  }

  /** One of {@code values}, as written (Kubernetes' enumerations are case-sensitive). */
  static PodField oneOf(String... values) {
    var allowed = Set.of(values);
    var shown = java.util.Arrays.stream(values).map(v -> v.isEmpty() ? "\"\"" : v).toList();
    return new Text(allowed::contains, "one of " + String.join(", ", shown));
  }

  static Items list(PodField item) {
    return new Items(item, 0, null);
  }

  /** An object of these name-and-field pairs. */
  static Fields object(Object... pairs) {
    return new Fields(fields(pairs), Set.of(), List.of());
  }

  static Map<String, PodField> fields(Object... pairs) {
    var result = new LinkedHashMap<String, PodField>();
    for (int i = 0; i < pairs.length; i += 2) {
      result.put((String) pairs[i], (PodField) pairs[i + 1]);
    }
    return Map.copyOf(result);
  }
}
