package io.trainyard.gateway.webhooks;

import io.trainyard.gateway.config.WebhooksConfig;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where webhooks may send: http(s) URLs without credentials, on the allowed hosts, never to
 * link-local or cloud metadata addresses, never to this gateway's admin port, to loopback only when
 * {@code webhooks.allowLoopback} says so. Checked when a webhook is configured and again, on the
 * addresses the name resolves to, right before each attempt: a name that pointed somewhere harmless
 * at configuration may point at the metadata service by delivery time (DNS rebinding). The JVM
 * caches a successful lookup (networkaddress.cache.ttl, 30 s by default), so the HTTP client that
 * connects next gets the addresses checked here. Thread-safe.
 */
public final class ReceiverPolicy {
  /** Names of metadata services that resolve only inside their cloud. */
  private static final Set<String> METADATA_NAMES =
      Set.of("metadata.google.internal", "metadata.goog", "metadata", "instance-data");

  /** Metadata and host-agent addresses outside link-local: AWS IPv6, Alibaba, Azure wireserver. */
  private static final Set<String> METADATA_ADDRESSES =
      Set.of("fd00:ec2:0:0:0:0:0:254", "100.100.100.200", "168.63.129.16");

  /** A refusal, with the reason as told to the caller or recorded on the delivery. */
  public static final class Refused extends RuntimeException {
    public Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private final List<String> allowedHosts;
  private final boolean allowLoopback;
  private final boolean allowPrivateNetworks;
  private final Supplier<Set<Integer>> adminPorts;

  /**
   * @param adminPorts the gateway's admin ports, known once its server has started
   */
  public ReceiverPolicy(WebhooksConfig config, Supplier<Set<Integer>> adminPorts) {
    this.allowedHosts =
        config.getAllowedHosts().stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    this.allowLoopback = config.isAllowLoopback();
    this.allowPrivateNetworks = config.isAllowPrivateNetworks();
    this.adminPorts = adminPorts;
  }

  /**
   * Checks a URL as configured: its form, its host against the allow-list, and the addresses it
   * resolves to now, when it resolves (a receiver may not exist yet; delivery checks again).
   *
   * @return the URL, parsed
   * @throws Refused saying why
   */
  public URI checkConfigured(String url) {
    var uri = parse(url);
    var host = host(uri);
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      return uri;
    }
    checkAddresses(addresses, port(uri));
    return uri;
  }

  /**
   * Checks a URL right before an attempt, resolving its host.
   *
   * @throws Refused saying why, also when the host does not resolve
   */
  public void checkAtDelivery(URI uri) {
    var host = host(uri);
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      throw new Refused("the receiver's host " + host + " does not resolve");
    }
    checkAddresses(addresses, port(uri));
  }

  private URI parse(String url) {
    if (url == null || url.isBlank()) {
      throw new Refused("is required");
    }
    if (url.length() > 2048) {
      throw new Refused("must be at most 2048 characters");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new Refused("is not a URL");
    }
    var scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new Refused("must be an http or https URL");
    }
    if (uri.getRawUserInfo() != null) {
      throw new Refused("must not carry credentials; the receiver checks the signature instead");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new Refused("must name a host");
    }
    if (uri.getRawFragment() != null) {
      throw new Refused("must not have a fragment");
    }
    if (uri.getPort() > 65_535) {
      throw new Refused("must have a port from 1 to 65535");
    }
    host(uri);
    return uri;
  }

  /** The host, checked against the metadata names and the allow-list. */
  private String host(URI uri) {
    var host = uri.getHost().toLowerCase(Locale.ROOT);
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    if (METADATA_NAMES.contains(host)) {
      throw new Refused("must not be a cloud metadata service");
    }
    if (!allowedHosts.isEmpty() && !allowed(host)) {
      throw new Refused("host " + host + " is not in webhooks.allowedHosts");
    }
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }

  private boolean allowed(String host) {
    for (var pattern : allowedHosts) {
      if (pattern.startsWith("*.")
          ? host.endsWith(pattern.substring(1)) && host.length() > pattern.length() - 1
          : host.equals(pattern)) {
        return true;
      }
    }
    return false;
  }

  private static int port(URI uri) {
    if (uri.getPort() != -1) {
      return uri.getPort();
    }
    return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }

  private void checkAddresses(InetAddress[] addresses, int port) {
    for (var address : addresses) {
      var reason = refusal(address, port);
      if (reason != null) {
        throw new Refused(reason);
      }
    }
  }

  private String refusal(InetAddress address, int port) {
    var text = address.getHostAddress();
    if (address.isLinkLocalAddress() || METADATA_ADDRESSES.contains(normal(address))) {
      return "must not reach a link-local or cloud metadata address (" + text + ")";
    }
    if (address.isAnyLocalAddress() || address.isMulticastAddress()) {
      return "must not reach a wildcard or multicast address (" + text + ")";
    }
    if ((address.isLoopbackAddress() || isOwnAddress(address)) && adminPorts.get().contains(port)) {
      return "must not reach the gateway's admin port";
    }
    if (address.isLoopbackAddress() && !allowLoopback) {
      return "must not reach a loopback address (" + text + ") unless webhooks.allowLoopback";
    }
    if (isPrivate(address) && !allowPrivateNetworks) {
      return "must not reach a private network address ("
          + text
          + ") unless webhooks.allowPrivateNetworks";
    }
    return null;
  }

  private static String normal(InetAddress address) {
    var text = address.getHostAddress();
    int zone = text.indexOf('%');
    return zone < 0 ? text : text.substring(0, zone);
  }

  private static boolean isPrivate(InetAddress address) {
    if (address instanceof Inet6Address) {
      return (address.getAddress()[0] & 0xfe) == 0xfc; // fc00::/7
    }
    return address.isSiteLocalAddress();
  }

  private static boolean isOwnAddress(InetAddress address) {
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }
}
