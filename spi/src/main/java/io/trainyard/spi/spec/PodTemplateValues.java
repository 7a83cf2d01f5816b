package io.trainyard.spi.spec;

import io.trainyard.spi.spec.PodField.Fields;
import java.util.List;
import java.util.Map;

/**
 * Checks the values of a {@code kubernetes.podTemplate} (see {@link KubernetesOptions}) as the
 * Kubernetes API server would, so that a value of the wrong type, shape or range is refused when
 * the job is submitted, naming its field, rather than by the cluster when a backend creates the
 * pods. Walks the table of {@code core/v1} types in {@link PodSpecFields}, {@link
 * PodContainerFields} and {@link PodVolumeFields}: the pod template's {@code metadata} labels and
 * annotations, every pod-spec field a template may carry (affinity, tolerations, volumes and their
 * sources, security contexts, init containers, topology spread, DNS, ...) and its {@code
 * containers}.
 *
 * <p>Checked: each field's type (object, list, string, whole number, boolean, quantity); whole
 * numbers in their range (int32 and int64 overflow, ports 1-65535, affinity weights 1-100, IDs 0 to
 * 2^31-1, file modes up to 0777, grace periods of 0 or more); quantities in Kubernetes' grammar,
 * never negative, whole for extended resources, a request at most its limit (equal for huge pages
 * and extended resources); enumerations (toleration operators and effects, DNS and preemption
 * policies, pull policies, protocols, selector operators, ...); names (containers, volumes, ports,
 * label keys and values, annotation keys); and what one object's fields must agree on (a
 * toleration's operator and value, a selector's operator and values, a volume's one source, names
 * used once in a list).
 *
 * <p>Left to the cluster: fields the table does not know (the cluster may be newer, so they are
 * never refused); whatever needs two top-level fields of a template together, because a role's
 * template replaces the job's key by key ({@code dnsPolicy: None} needs {@code dnsConfig}, a {@code
 * volumeMount} names a volume of the template or one the backend adds, a host port with {@code
 * hostNetwork}, a container name used by both {@code containers} and {@code initContainers});
 * feature-gated values a cluster may not have turned on (toleration operators {@code Lt} and {@code
 * Gt}, init containers' {@code restartPolicy} other than {@code Always}); what only the cluster
 * knows (that a secret, a claim or a priority class exists). Stateless and thread-safe; linear in
 * the size of the tree.
 */
final class PodTemplateValues {
  private static final Fields TEMPLATE =
      PodVolumeFields.withVolumes(PodContainerFields.withContainers(PodSpecFields.POD_TEMPLATE));

  private PodTemplateValues() {}

  /** Appends to {@code errors} what is wrong with {@code podTemplate}, found at {@code at}. */
  static void check(String at, Map<String, Object> podTemplate, List<FieldError> errors) {
    if (!podTemplate.isEmpty()) {
      TEMPLATE.check(at, podTemplate, errors);
    }
  }
}
