package io.trainyard.spi.spec;

import java.util.List;
import java.util.Map;

/**
 * Checks every free-text field of a job for characters no backend, log or audit record can carry
 * (see {@link InputLimits#textProblem}). Fields held to a pattern (names, label keys, secret names)
 * are checked by their pattern in {@link JobSpecValidator} instead. Args, command, env values and
 * the free-form trees may span lines; everything else is one line. Stateless.
 */
final class TextFieldsValidator {
  private TextFieldsValidator() {}

  static void check(TrainingJob job, List<FieldError> errors) {
    line("apiVersion", job.apiVersion(), errors);
    line("kind", job.kind(), errors);
    var spec = job.spec();
    if (spec == null) {
      return;
    }
    container("spec", spec.image(), spec.command(), spec.args(), spec.env(), errors);
    resources("spec.resources", spec.resources(), errors);
    spec.roles()
        .forEach(
            (role, o) -> {
              if (o == null) {
                return;
              }
              var at = "spec.roles." + role;
              container(at, o.image(), o.command(), o.args(), o.env(), errors);
              resources(at + ".resources", o.resources(), errors);
              if (o.kubernetes() != null) {
                tree(at + ".kubernetes.podTemplate", o.kubernetes().podTemplate(), errors);
              }
            });
    if (spec.kubernetes() != null) {
      tree("spec.kubernetes.podTemplate", spec.kubernetes().podTemplate(), errors);
      tree("spec.kubernetes.jobLabels", spec.kubernetes().jobLabels(), errors);
      tree("spec.kubernetes.jobAnnotations", spec.kubernetes().jobAnnotations(), errors);
      tree("spec.kubernetes.trainJob", spec.kubernetes().trainJob(), errors);
      var s = spec.kubernetes().scheduling();
      if (s != null) {
        line("spec.kubernetes.scheduling.queue", s.queue(), errors);
        tree("spec.kubernetes.scheduling.minResources", s.minResources(), errors);
      }
    }
    tree("spec.deepspeed", spec.deepspeed(), errors);
    tree("spec.hyperparameters", spec.hyperparameters(), errors);
    if (spec.elastic() != null) {
      line("spec.elastic.rdzvBackend", spec.elastic().rdzvBackend(), errors);
      line("spec.elastic.rdzvHost", spec.elastic().rdzvHost(), errors);
      line("spec.elastic.rdzvId", spec.elastic().rdzvId(), errors);
      tree("spec.elastic.rdzvConf", spec.elastic().rdzvConf(), errors);
      tree("spec.elastic.metrics", spec.elastic().metrics(), errors);
    }
    line("spec.checkpoint.uri", spec.checkpoint() == null ? null : spec.checkpoint().uri(), errors);
    line("spec.output.uri", spec.output() == null ? null : spec.output().uri(), errors);
    for (int i = 0; i < spec.inputs().size(); i++) {
      var in = spec.inputs().get(i);
      line("spec.inputs[" + i + "].uri", in == null ? null : in.uri(), errors);
    }
    for (int i = 0; i < spec.volumes().size(); i++) {
      var v = spec.volumes().get(i);
      line("spec.volumes[" + i + "].mountPath", v == null ? null : v.mountPath(), errors);
    }
    var p = spec.effectivePlacement();
    list("spec.placement.backends", p.backends(), false, errors);
    list("spec.placement.regions", p.regions(), false, errors);
  }

  private static void container(
      String at,
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      List<FieldError> errors) {
    line(at + ".image", image, errors);
    if (image != null && image.length() > InputLimits.MAX_IMAGE_CHARS) {
      errors.add(
          new FieldError(
              at + ".image",
              "is longer than "
                  + InputLimits.MAX_IMAGE_CHARS
                  + " characters: not an image reference"));
    } else if (image != null && image.chars().anyMatch(Character::isWhitespace)) {
      errors.add(new FieldError(at + ".image", "must not contain whitespace"));
    } else if (image != null && image.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      // Image references are ASCII (registry, repository, tag, digest): a no-break or zero-width
      // space, a direction override or a BOM would make two references look alike.
      errors.add(
          new FieldError(
              at + ".image", "must be an image reference of printable ASCII characters"));
    }
    list(at + ".command", command, true, errors);
    list(at + ".args", args, true, errors);
    env.forEach((name, value) -> text(at + ".env." + name, value, true, errors));
  }

  private static void resources(String at, Resources r, List<FieldError> errors) {
    if (r != null) {
      line(at + ".gpuType", r.gpuType(), errors);
    }
  }

  private static void list(String at, List<String> values, boolean multiline, List<FieldError> e) {
    if (values == null) {
      return;
    }
    for (int i = 0; i < values.size(); i++) {
      text(at + "[" + i + "]", values.get(i), multiline, e);
    }
  }

  /** Every key and string of a free-form tree (a pod template, DeepSpeed's config). */
  private static void tree(String at, Object node, List<FieldError> errors) {
    if (node instanceof String s) {
      text(at, s, true, errors);
    } else if (node instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            var key = String.valueOf(k);
            var problem = InputLimits.textProblem(key, false);
            if (problem != null) {
              errors.add(new FieldError(at, "has a key that " + problem));
            } else {
              tree(at + "." + key, v, errors);
            }
          });
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        tree(at + "[" + i + "]", list.get(i), errors);
      }
    }
  }

  private static void line(String at, String value, List<FieldError> errors) {
    text(at, value, false, errors);
  }

  private static void text(String at, String value, boolean multiline, List<FieldError> errors) {
    if (value == null) {
      return;
    }
    var problem = InputLimits.textProblem(value, multiline);
    if (problem != null) {
      errors.add(new FieldError(at, problem));
    }
  }
}
