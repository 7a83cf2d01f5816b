package io.trainyard.gateway.api;

import java.util.List;

/** {@code GET /v1/algorithms}: the algorithms the caller may see and run. */
public record AlgorithmList(List<AlgorithmView> algorithms) {}
