package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.kubeflow.ContainerReader.MainContainer;
import io.trainyard.spi.spec.RestartPolicy;

/**
 * One replica type of a document as read, before values shared by every type become the spec's
 * defaults.
 *
 * @param role the spec's role ({@code master}, {@code ps}, ...)
 * @param restartPolicy null when the document leaves it to the operator's default
 * @param podTemplate this type's {@code kubernetes.podTemplate}; empty when it needs none
 */
record Replica(
    String role,
    int count,
    RestartPolicy restartPolicy,
    MainContainer main,
    ObjectNode podTemplate) {}
