package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonMerge;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/**
 * Where the logs of attempts on backends that do not keep them (Kubernetes pods) are archived when
 * the attempt ends, so that {@code GET /v1/jobs/{id}/logs} can serve them after the pods are gone.
 *
 * <pre>{@code
 * logArchive:
 *   sink: {provider: aws-s3, container: my-bucket, prefix: trainyard/logs}
 *   maxBytesPerAttempt: 256MiB
 * }</pre>
 */
public class LogArchiveConfig {
  @Valid @NotNull private BlobSinkSettings sink = new BlobSinkSettings("log-archive");
  @NotNull private DataSize maxBytesPerAttempt = DataSize.mebibytes(256);

  /** Default: the directory {@code <dataDir>/log-archive}. */
  @JsonProperty
  @JsonMerge
  public BlobSinkSettings getSink() {
    return sink;
  }

  @JsonProperty
  public void setSink(BlobSinkSettings sink) {
    this.sink = sink;
  }

  /** An attempt's archive stops here, with a last line saying so (the pods keep the rest). */
  @JsonProperty
  public DataSize getMaxBytesPerAttempt() {
    return maxBytesPerAttempt;
  }

  @JsonProperty
  public void setMaxBytesPerAttempt(DataSize maxBytesPerAttempt) {
    this.maxBytesPerAttempt = maxBytesPerAttempt;
  }
}
