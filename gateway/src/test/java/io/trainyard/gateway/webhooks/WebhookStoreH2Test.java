package io.trainyard.gateway.webhooks;

import io.trainyard.gateway.testing.H2Extension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(H2Extension.class)
class WebhookStoreH2Test extends WebhookStoreContract {}
