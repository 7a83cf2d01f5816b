package io.trainyard.gateway.audit;

import io.trainyard.gateway.testing.PostgresExtension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class AuditTrailPostgresIT extends AuditTrailContract {}
