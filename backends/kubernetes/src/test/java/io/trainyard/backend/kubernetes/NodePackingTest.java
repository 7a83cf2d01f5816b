package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.backend.kubernetes.NodePacking.Replica;
import java.util.ArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodePackingTest {
  private static final NodePool POOL =
      new NodePool(
          "p",
          "t",
          8.0,
          "32Gi",
          "gpu",
          4,
          null,
          null,
          100,
          false,
          null,
          null,
          new NodePool.Reserved(0.5, "2Gi"),
          null,
          null);
  private static final PoolShape SHAPE =
      new PoolShape(POOL, 8, 32, "gpu", 4, NodeReserve.of(POOL, "aws", 8, 32));

  /** replicas as "count×gpus/cpus/GiB" groups → nodes. */
  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "1×0/1/1, 1",
    "4×1/1/1, 1",
    "5×1/1/1, 2",
    "2×0/3.75/1, 1",
    "3×0/3.75/1, 2",
    "2×0/1/15, 1",
    "3×0/1/15, 2",
    // first fit decreasing: the big ones first, the small ones in the gaps
    "2×3/1/1 + 2×1/1/1, 2",
    "1×4/7.5/30 + 1×0/0.5/0.5, 2",
  })
  void replicasPackOntoTheFewestNodesFirstFitDecreasing(String replicas, int nodes) {
    var list = new ArrayList<Replica>();
    for (var group : replicas.split(" \\+ ")) {
      var count = Integer.parseInt(group.substring(0, group.indexOf('×')));
      var parts = group.substring(group.indexOf('×') + 1).split("/");
      for (int i = 0; i < count; i++) {
        list.add(
            new Replica(
                "r",
                Double.parseDouble(parts[1]),
                Double.parseDouble(parts[2]),
                Integer.parseInt(parts[0])));
      }
    }
    assertThat(NodePacking.nodes(list, SHAPE)).isEqualTo(nodes);
  }
}
