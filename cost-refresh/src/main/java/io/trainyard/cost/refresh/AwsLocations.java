package io.trainyard.cost.refresh;

import java.util.Map;
import java.util.Optional;

/**
 * The Price List's {@code location} names of AWS regions. Products carry {@code regionCode} too;
 * the names are the fallback for products that lack it (older price list versions).
 */
final class AwsLocations {
  private static final Map<String, String> REGION_BY_LOCATION =
      Map.ofEntries(
          Map.entry("US East (N. Virginia)", "us-east-1"),
          Map.entry("US East (Ohio)", "us-east-2"),
          Map.entry("US West (N. California)", "us-west-1"),
          Map.entry("US West (Oregon)", "us-west-2"),
          Map.entry("Canada (Central)", "ca-central-1"),
          Map.entry("South America (Sao Paulo)", "sa-east-1"),
          Map.entry("EU (Ireland)", "eu-west-1"),
          Map.entry("EU (London)", "eu-west-2"),
          Map.entry("EU (Paris)", "eu-west-3"),
          Map.entry("EU (Frankfurt)", "eu-central-1"),
          Map.entry("EU (Stockholm)", "eu-north-1"),
          Map.entry("EU (Milan)", "eu-south-1"),
          Map.entry("Asia Pacific (Mumbai)", "ap-south-1"),
          Map.entry("Asia Pacific (Tokyo)", "ap-northeast-1"),
          Map.entry("Asia Pacific (Seoul)", "ap-northeast-2"),
          Map.entry("Asia Pacific (Osaka)", "ap-northeast-3"),
          Map.entry("Asia Pacific (Singapore)", "ap-southeast-1"),
          Map.entry("Asia Pacific (Sydney)", "ap-southeast-2"),
          Map.entry("AWS GovCloud (US)", "us-gov-west-1"),
          Map.entry("AWS GovCloud (US-East)", "us-gov-east-1"));

  private AwsLocations() {}

  static Optional<String> regionOf(String location) {
    return Optional.ofNullable(REGION_BY_LOCATION.get(location));
  }
}
