package io.trainyard.gateway.webhooks;

import io.trainyard.gateway.testing.PostgresExtension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class WebhookStorePostgresIT extends WebhookStoreContract {}
