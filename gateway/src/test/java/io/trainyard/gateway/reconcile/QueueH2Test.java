package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.testing.H2Extension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(H2Extension.class)
class QueueH2Test extends QueueContract {}
