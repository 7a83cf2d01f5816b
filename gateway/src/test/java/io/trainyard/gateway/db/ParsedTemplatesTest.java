package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;
import org.junit.jupiter.api.Test;

/** The gateway's template engine renders what Jdbi's default does, and is cached as parsed. */
class ParsedTemplatesTest {
  @Test
  void rendersAttributesAndListsLikeTheDefaultEngine() {
    var jdbi = Jdbi.create("jdbc:h2:mem:parsed-templates;DB_CLOSE_DELAY=-1");
    jdbi.setTemplateEngine(new ParsedTemplates());
    jdbi.useHandle(
        h -> {
          h.execute("CREATE TABLE t (id INT PRIMARY KEY, state VARCHAR(10))");
          h.execute("INSERT INTO t VALUES (1, 'A'), (2, 'B'), (3, 'C')");
        });

    for (int i = 0; i < 3; i++) { // the second and third come from Jdbi's template cache
      var ids =
          jdbi.withHandle(
              h ->
                  h.createQuery("SELECT id FROM <table> WHERE state IN (<states>) ORDER BY id")
                      .define("table", "t")
                      .bindList("states", List.of("A", "C"))
                      .mapTo(Integer.class)
                      .list());
      assertThat(ids).containsExactly(1, 3);
    }
    assertThat(jdbi.getConfig(SqlStatements.class).getTemplateEngine())
        .isInstanceOf(ParsedTemplates.class);
  }
}
