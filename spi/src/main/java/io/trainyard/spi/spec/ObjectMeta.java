package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * The job's name (a DNS-1123 label, unique among the team's live jobs), its team (needed only when
 * the caller belongs to several) and free-form labels.
 *
 * <p>{@code generateName} stands for a name the gateway makes when the job is stored, as Kubernetes
 * does: the prefix and five random characters. It is part of the document (and of its hash), the
 * generated name is not, so the same document replayed with the same idempotency key finds the same
 * job. A set {@code name} wins.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ObjectMeta(
    String name, String team, Map<String, String> labels, String generateName) {
  /** Characters of a generated suffix: Kubernetes' own, with no vowels to spell words. */
  public static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  public static final int SUFFIX_LENGTH = 5;

  public ObjectMeta {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  public ObjectMeta(String name, String team, Map<String, String> labels) {
    this(name, team, labels, null);
  }

  /** This metadata with {@code name} set (a name generated from {@code generateName}). */
  public ObjectMeta withName(String name) {
    return new ObjectMeta(name, team, labels, generateName);
  }
}
