package io.trainyard.spi.spec;

import java.util.regex.Pattern;

/**
 * The string formats the API server holds pod-spec fields to (Kubernetes' {@code
 * apimachinery/pkg/util/validation}): names, label keys and values, port names, IP addresses,
 * relative paths, resource names. Stateless.
 */
final class PodFormats {
  private static final Pattern PORT_NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?");
  private static final Pattern IPV4 =
      Pattern.compile(
          "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
              + "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

  private PodFormats() {}

  static boolean isDnsLabel(String s) {
    return s.length() <= 63 && JobSpecValidator.DNS1123_LABEL.matcher(s).matches();
  }

  static boolean isSubdomain(String s) {
    return KubernetesNames.isSubdomain(s);
  }

  /** A DNS search domain: a subdomain, a trailing dot allowed. */
  static boolean isSearchDomain(String s) {
    return isSubdomain(s.endsWith(".") ? s.substring(0, s.length() - 1) : s);
  }

  /** A label key, taint key or topology key: an optional DNS-subdomain prefix and a name. */
  static boolean isQualifiedName(String s) {
    return KubernetesNames.isLabelKey(s);
  }

  static boolean isLabelValue(String s) {
    return KubernetesNames.isLabelValue(s);
  }

  /** IANA_SVC_NAME: at most 15 of a-z, 0-9 and '-', a letter among them, no "--". */
  static boolean isPortName(String s) {
    return PORT_NAME.matcher(s).matches()
        && s.chars().anyMatch(Character::isLetter)
        && !s.contains("--");
  }

  /** An IPv4 or IPv6 address; the form is checked, not what it routes to. */
  static boolean isIp(String s) {
    return IPV4.matcher(s).matches()
        || (IPV6.matcher(s).matches() && s.indexOf(':') != s.lastIndexOf(':'));
  }

  /** A path below a volume's root: not absolute, no ".." element. */
  static boolean isDescendingPath(String s) {
    if (s.startsWith("/")) {
      return false;
    }
    for (var part : s.split("/", -1)) {
      if (part.equals("..")) {
        return false;
      }
    }
    return true;
  }

  /**
   * A resource a container may ask for: {@code cpu}, {@code memory}, {@code ephemeral-storage},
   * {@code hugepages-<size>}, or an extended resource named with a domain ({@code nvidia.com/gpu}).
   */
  static boolean isContainerResourceName(String s) {
    if (!s.contains("/")) {
      return s.equals("cpu")
          || s.equals("memory")
          || s.equals("ephemeral-storage")
          || isHugePages(s);
    }
    return isQualifiedName(s) && !s.startsWith("requests.");
  }

  static boolean isHugePages(String s) {
    return s.startsWith("hugepages-")
        && KubernetesQuantities.value(s.substring("hugepages-".length()))
            .filter(q -> q.signum() > 0)
            .isPresent();
  }

  /** Requests of these must equal their limits: huge pages and extended resources. */
  static boolean isOvercommitForbidden(String s) {
    return s.startsWith("hugepages-") || (s.contains("/") && !s.contains("kubernetes.io/"));
  }

  /** Extended resources are counted in whole units. */
  static boolean isWholeResource(String s) {
    return s.contains("/") && !s.contains("kubernetes.io/");
  }
}
