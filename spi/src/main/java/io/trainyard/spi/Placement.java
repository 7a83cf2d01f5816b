package io.trainyard.spi;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * One concrete way a backend could run a job: which instances, how many, where. The cost module
 * prices it into an offer; the backend gets it back at submit.
 *
 * @param provider the price catalog's provider, e.g. {@code aws}, {@code gcp}, {@code onprem}
 * @param service the catalog's service, e.g. {@code ec2}, {@code sagemaker}, {@code local}
 * @param lines one line per group of replicas on one instance type
 * @param operatorUsdPerHour a price the operator set for the whole placement (on-prem, local)
 *     instead of catalog prices; null to price from the catalog
 * @param clusterFeeUsdPerHour this job's share of a cluster's hourly fee (a managed control plane),
 *     from operator configuration; null when there is none
 * @param freeCapacity instances free right now, where the backend knows it; null when unknown
 * @param notes facts a user should see in the quote, e.g. "image is recorded but not run"
 * @param waitingAhead what waits ahead of this job for the placement's capacity (pending pods,
 *     queued jobs) and where the figure came from; null when the backend says nothing (the gateway
 *     then adds its own knowledge: jobs it placed there that have not started)
 * @param storageGbPerInstance a storage volume the platform provisions and bills per instance for
 *     the job's run (SageMaker's ML storage, {@code VolumeSizeInGB}); null when none is billed
 *     apart from the hourly price
 */
public record Placement(
    String backendId,
    String provider,
    String service,
    String region,
    boolean spot,
    List<PlacementLine> lines,
    BigDecimal operatorUsdPerHour,
    BigDecimal clusterFeeUsdPerHour,
    Integer freeCapacity,
    List<String> notes,
    @JsonInclude(JsonInclude.Include.NON_NULL) WaitingAhead waitingAhead,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer storageGbPerInstance) {
  public Placement {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(region, "region");
    lines = List.copyOf(lines);
    notes = notes == null ? List.of() : List.copyOf(notes);
    if (storageGbPerInstance != null && storageGbPerInstance < 0) {
      throw new IllegalArgumentException("storageGbPerInstance must be 0 or more");
    }
  }

  /** A placement with no storage billed apart. */
  public Placement(
      String backendId,
      String provider,
      String service,
      String region,
      boolean spot,
      List<PlacementLine> lines,
      BigDecimal operatorUsdPerHour,
      BigDecimal clusterFeeUsdPerHour,
      Integer freeCapacity,
      List<String> notes,
      WaitingAhead waitingAhead) {
    this(
        backendId,
        provider,
        service,
        region,
        spot,
        lines,
        operatorUsdPerHour,
        clusterFeeUsdPerHour,
        freeCapacity,
        notes,
        waitingAhead,
        null);
  }

  /** A placement whose backend says nothing of what waits ahead. */
  public Placement(
      String backendId,
      String provider,
      String service,
      String region,
      boolean spot,
      List<PlacementLine> lines,
      BigDecimal operatorUsdPerHour,
      BigDecimal clusterFeeUsdPerHour,
      Integer freeCapacity,
      List<String> notes) {
    this(
        backendId,
        provider,
        service,
        region,
        spot,
        lines,
        operatorUsdPerHour,
        clusterFeeUsdPerHour,
        freeCapacity,
        notes,
        null);
  }

  /** This placement with {@code ahead} as what waits ahead of it. */
  public Placement withWaitingAhead(WaitingAhead ahead) {
    return new Placement(
        backendId,
        provider,
        service,
        region,
        spot,
        lines,
        operatorUsdPerHour,
        clusterFeeUsdPerHour,
        freeCapacity,
        notes,
        ahead,
        storageGbPerInstance);
  }
}
