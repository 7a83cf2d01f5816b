package io.trainyard.gateway.db;

import io.trainyard.gateway.testing.PostgresExtension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class GroupCommitPostgresIT extends GroupCommitContract {}
