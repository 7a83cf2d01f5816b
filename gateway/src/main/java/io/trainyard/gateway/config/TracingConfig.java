package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OpenTelemetry traces ({@code tracing:}), off unless {@code otlp.endpoint} is set: then the
 * gateway builds the SDK and exports spans over OTLP (HTTP/protobuf by default, or gRPC). Without
 * an endpoint no SDK is built at all and every span is a no-op. See docs/observability.md "Traces".
 */
public class TracingConfig {
  @NotBlank private String serviceName = "trainyard";

  /** Share of new traces kept (root spans; children follow their parent's decision). */
  @DecimalMin("0.0")
  @DecimalMax("1.0")
  private double samplerRatio = 1.0;

  @Valid @NotNull private Otlp otlp = new Otlp();

  /** Where spans go. */
  public static class Otlp {
    public static final String HTTP_PROTOBUF = "http/protobuf";
    public static final String GRPC = "grpc";

    /**
     * The collector's base URL ({@code http://collector:4318}; {@code /v1/traces} is added for HTTP
     * when the URL has no path) or, for gRPC, its address ({@code http://collector:4317}).
     */
    private String endpoint;

    @NotNull
    @Pattern(regexp = "http/protobuf|grpc", message = "must be http/protobuf or grpc")
    private String protocol = HTTP_PROTOBUF;

    /**
     * Sent with every export (e.g. a vendor's API key). Never written back out: not in the audited
     * configuration hash, not in a log line.
     */
    @NotNull
    @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
    private Map<String, String> headers = new LinkedHashMap<>();

    @NotNull private Duration timeout = Duration.seconds(10);

    /** How long finished spans wait to be sent in one batch. */
    @NotNull private Duration scheduleDelay = Duration.seconds(5);

    public String getEndpoint() {
      return endpoint;
    }

    public void setEndpoint(String endpoint) {
      this.endpoint = endpoint;
    }

    public String getProtocol() {
      return protocol;
    }

    public void setProtocol(String protocol) {
      this.protocol = protocol;
    }

    public Map<String, String> getHeaders() {
      return headers;
    }

    public void setHeaders(Map<String, String> headers) {
      this.headers = headers;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    public Duration getScheduleDelay() {
      return scheduleDelay;
    }

    public void setScheduleDelay(Duration scheduleDelay) {
      this.scheduleDelay = scheduleDelay;
    }
  }

  /** Whether spans are exported at all. */
  public boolean enabled() {
    return otlp.endpoint != null && !otlp.endpoint.isBlank();
  }

  public String getServiceName() {
    return serviceName;
  }

  public void setServiceName(String serviceName) {
    this.serviceName = serviceName;
  }

  public double getSamplerRatio() {
    return samplerRatio;
  }

  public void setSamplerRatio(double samplerRatio) {
    this.samplerRatio = samplerRatio;
  }

  public Otlp getOtlp() {
    return otlp;
  }

  public void setOtlp(Otlp otlp) {
    this.otlp = otlp;
  }
}
