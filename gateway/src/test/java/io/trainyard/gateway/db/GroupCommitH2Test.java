package io.trainyard.gateway.db;

import io.trainyard.gateway.testing.H2Extension;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(H2Extension.class)
class GroupCommitH2Test extends GroupCommitContract {}
