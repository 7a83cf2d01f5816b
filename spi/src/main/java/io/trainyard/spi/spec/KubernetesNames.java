package io.trainyard.spi.spec;

import java.util.regex.Pattern;

/**
 * Kubernetes' rules for the names a job carries to a cluster (label keys and values, Secret names
 * and keys), applied to every job so that a name a cluster would refuse, or a key such as {@code
 * ..} that names a directory on the local backend, never gets past validation. Stateless.
 */
final class KubernetesNames {
  private static final int MAX_NAME = 63;
  private static final int MAX_SUBDOMAIN = 253;
  // A qualified name's name part: at most 63, alphanumeric at both ends.
  private static final Pattern LABEL_NAME =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");
  private static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

  private KubernetesNames() {}

  /** An optional DNS-subdomain prefix and '/', then a name: so {@code ../x} is refused. */
  static boolean isLabelKey(String key) {
    var slash = key.lastIndexOf('/');
    if (slash >= 0 && !isSubdomain(key.substring(0, slash))) {
      return false;
    }
    return LABEL_NAME.matcher(key.substring(slash + 1)).matches();
  }

  static boolean isLabelValue(String value) {
    return LABEL_VALUE.matcher(value).matches();
  }

  /** A DNS-1123 subdomain: each dot-separated part a DNS-1123 label, so ".." and "a..b" fail. */
  static boolean isSubdomain(String name) {
    if (name.isEmpty() || name.length() > MAX_SUBDOMAIN) {
      return false;
    }
    for (var part : name.split("\\.", -1)) {
      if (part.length() > MAX_NAME || !JobSpecValidator.DNS1123_LABEL.matcher(part).matches()) {
        return false;
      }
    }
    return true;
  }

  /** A Secret or ConfigMap key; "." and ".." would name a directory, not a file. */
  static boolean isSecretKey(String key) {
    return key.length() <= MAX_SUBDOMAIN
        && SECRET_KEY.matcher(key).matches()
        && !key.equals(".")
        && !key.startsWith("..");
  }
}
