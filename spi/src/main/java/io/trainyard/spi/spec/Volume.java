package io.trainyard.spi.spec;

/**
 * A PersistentVolumeClaim mounted in every replica. Only Kubernetes backends can honour it; the
 * others reject the job with that reason.
 */
public record Volume(String name, String claim, String mountPath) {}
