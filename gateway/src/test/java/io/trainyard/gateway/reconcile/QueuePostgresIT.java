package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.testing.PostgresExtension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class QueuePostgresIT extends QueueContract {}
