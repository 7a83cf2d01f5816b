package io.trainyard.gateway.db;

import io.trainyard.gateway.testing.H2Extension;
import io.trainyard.gateway.testing.TestDatabase;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every case of the store's contract again, with inserts going through a {@link GroupCommit}. */
@ExtendWith(H2Extension.class)
class JobStoreGroupCommitH2Test extends JobStoreContract {
  @Override
  GroupCommit groupCommit(TestDatabase database) {
    return new GroupCommit(database.jdbi(), GroupCommit.MAX_BATCH);
  }
}
