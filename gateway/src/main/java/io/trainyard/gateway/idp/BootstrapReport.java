package io.trainyard.gateway.idp;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code bootstrap-idp} run found and did, one line per thing it looked after. Never holds a
 * secret. Not thread-safe: one run fills it.
 */
public final class BootstrapReport {
  /** What happened to one thing. */
  public enum Outcome {
    CREATED,
    UPDATED,
    UNCHANGED
  }

  /** One thing looked after. */
  public record Step(String what, Outcome outcome, String note) {
    public String line() {
      var word =
          switch (outcome) {
            case CREATED -> "created";
            case UPDATED -> "updated";
            case UNCHANGED -> "exists";
          };
      return what + ": " + word + (note == null || note.isEmpty() ? "" : " (" + note + ")");
    }
  }

  private final List<Step> steps = new ArrayList<>();

  void created(String what, String note) {
    steps.add(new Step(what, Outcome.CREATED, note));
  }

  void updated(String what, String note) {
    steps.add(new Step(what, Outcome.UPDATED, note));
  }

  void unchanged(String what, String note) {
    steps.add(new Step(what, Outcome.UNCHANGED, note));
  }

  /** Records a step whose outcome depends on whether anything had to change. */
  void record(String what, boolean changed, String note) {
    if (changed) {
      updated(what, note);
    } else {
      unchanged(what, null);
    }
  }

  public List<Step> steps() {
    return List.copyOf(steps);
  }

  /** How many things were created or updated. */
  public long changes() {
    return steps.stream().filter(s -> s.outcome() != Outcome.UNCHANGED).count();
  }

  /** The report as printed: one line per step, then a summary line. */
  public List<String> lines(String realm) {
    var lines = new ArrayList<String>();
    steps.forEach(s -> lines.add(s.line()));
    long changes = changes();
    lines.add(
        changes == 0
            ? "Nothing to change: realm " + realm + " already has everything Trainyard needs."
            : changes + " change(s) made in realm " + realm + ".");
    return lines;
  }
}
