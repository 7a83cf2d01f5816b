package io.trainyard.backend.azureml;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.util.Context;
import io.trainyard.spi.BackendException;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * Reads a job's log files from the workspace's storage account with the Blob REST API (List Blobs,
 * Get Blob with a range), through azure-core's pipeline with a token for {@code
 * https://storage.azure.com/.default}. A command job writes its output logs to the workspace's
 * artifact container ({@code azureml}) under {@code ExperimentRun/dcid.<job name>/user_logs/}
 * ({@code std_log.txt}, one {@code std_log_process_<rank>.txt} per process of a distributed job).
 * Thread-safe.
 */
final class AzureMlBlobLogs {
  static final String SCOPE = "https://storage.azure.com/.default";
  // Bearer tokens on Blob requests need 2017-11-09 or later.
  static final String STORAGE_VERSION = "2021-08-06";

  private final HttpPipeline pipeline;
  private final String containerUrl;

  /** A blob under the job's log prefix and its size now. */
  record Blob(String name, long size) {}

  AzureMlBlobLogs(HttpPipeline pipeline, AzureMlConfig config) {
    this.pipeline = pipeline;
    this.containerUrl = config.blobEndpoint() + "/" + config.logsContainer();
  }

  static String prefix(String jobName) {
    return "ExperimentRun/dcid." + jobName + "/user_logs/";
  }

  /** The blobs under {@code prefix}; none while the container or the prefix does not exist. */
  List<Blob> list(String prefix) {
    var blobs = new ArrayList<Blob>();
    String marker = null;
    do {
      var url =
          containerUrl
              + "?restype=container&comp=list&prefix="
              + URLEncoder.encode(prefix, StandardCharsets.UTF_8)
              + (marker == null
                  ? ""
                  : "&marker=" + URLEncoder.encode(marker, StandardCharsets.UTF_8));
      var answer = get(url, null, "list logs under " + prefix);
      if (answer.status() == 404) {
        return List.of();
      }
      marker = parseList(answer.body(), blobs);
    } while (marker != null && !marker.isEmpty());
    return blobs;
  }

  /** The bytes of {@code blob} from {@code offset} on; empty when there are none yet. */
  byte[] read(String blob, long offset) {
    var url = containerUrl + "/" + encodePath(blob);
    var answer = get(url, "bytes=" + offset + "-", "read " + blob);
    if (answer.status() == 416 || answer.status() == 404) {
      return new byte[0];
    }
    if (answer.status() == 200 && offset > 0) {
      // The server ignored the range: take what lies past the offset.
      var all = answer.body();
      return offset >= all.length
          ? new byte[0]
          : java.util.Arrays.copyOfRange(all, (int) offset, all.length);
    }
    return answer.body();
  }

  /**
   * The last non-blank line of the first process's log ({@code std_log.txt} or {@code
   * std_log_process_0.txt}) from its last {@code maxBytes}; empty when there is none.
   */
  java.util.Optional<String> lastLine(String jobName, int maxBytes) {
    var prefix = prefix(jobName);
    var first =
        list(prefix).stream()
            .filter(
                b ->
                    b.name().equals(prefix + "std_log.txt")
                        || b.name().equals(prefix + "std_log_process_0.txt"))
            .findFirst();
    if (first.isEmpty() || first.get().size() == 0) {
      return java.util.Optional.empty();
    }
    var bytes = read(first.get().name(), Math.max(0, first.get().size() - maxBytes));
    var lines = new String(bytes, StandardCharsets.UTF_8).split("\\R");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].isBlank()) {
        return java.util.Optional.of(lines[i].strip());
      }
    }
    return java.util.Optional.empty();
  }

  private record Raw(int status, byte[] body) {}

  private Raw get(String url, String range, String action) {
    var request = new HttpRequest(HttpMethod.GET, url);
    request.setHeader(HttpHeaderName.fromString("x-ms-version"), STORAGE_VERSION);
    if (range != null) {
      request.setHeader(HttpHeaderName.fromString("x-ms-range"), range);
    }
    try (var response = pipeline.sendSync(request, Context.NONE)) {
      var body = response.getBodyAsBinaryData().toBytes();
      var status = response.getStatusCode();
      if (status >= 400 && status != 404 && status != 416) {
        var code = response.getHeaderValue(HttpHeaderName.fromString("x-ms-error-code"));
        throw AzureMlErrorTranslator.fromArm(
            action,
            status,
            Map.of("error", Map.of("code", code == null ? "" : code, "message", "Blob storage")));
      }
      return new Raw(status, body);
    } catch (RuntimeException e) {
      throw AzureMlErrorTranslator.fromException(action, e);
    }
  }

  /** Adds the listing's blobs and returns its {@code NextMarker}. */
  private static String parseList(byte[] xml, List<Blob> out) {
    try {
      var factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      var doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
      var nodes = doc.getElementsByTagName("Blob");
      for (int i = 0; i < nodes.getLength(); i++) {
        var blob = (Element) nodes.item(i);
        var name = text(blob, "Name");
        var length = text(blob, "Content-Length");
        out.add(new Blob(name, length == null ? 0 : Long.parseLong(length)));
      }
      var next = doc.getElementsByTagName("NextMarker");
      return next.getLength() == 0 ? null : next.item(0).getTextContent();
    } catch (Exception e) {
      throw new BackendException.Retryable("a Blob listing that is not XML: " + e.getMessage(), e);
    }
  }

  private static String text(Element parent, String tag) {
    var nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
  }

  private static String encodePath(String blob) {
    var parts = blob.split("/", -1);
    var encoded = new ArrayList<String>();
    for (var part : parts) {
      encoded.add(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return String.join("/", encoded);
  }
}
