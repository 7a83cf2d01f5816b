package io.trainyard.backend.eks;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/** A token taken apart: the presigned STS URL inside it, its query parameters decoded. */
record PresignedUrl(URI url, Map<String, String> query) {
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  static PresignedUrl ofToken(String token) {
    if (!token.startsWith(EksTokenGenerator.PREFIX)) {
      throw new IllegalArgumentException("not an EKS token");
    }
    var body = token.substring(EksTokenGenerator.PREFIX.length());
    if (body.contains("=")) {
      throw new IllegalArgumentException("padded base64");
    }
    var url = new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8);
    return of(url);
  }

  static PresignedUrl of(String url) {
    var uri = URI.create(url);
    var query = new TreeMap<String, String>();
    for (var pair : uri.getRawQuery().split("&")) {
      var eq = pair.indexOf('=');
      query.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return new PresignedUrl(uri, query);
  }

  Instant signedAt() {
    return Instant.from(AMZ_DATE.parse(query.get("X-Amz-Date")));
  }

  String signature() {
    return query.get("X-Amz-Signature");
  }
}
