package io.trainyard.gateway.audit;

import io.trainyard.gateway.testing.H2Extension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(H2Extension.class)
class AuditTrailH2Test extends AuditTrailContract {}
