package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.config.TeamConfig;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TeamAttributesTest {
  private static final TeamConfig NLP =
      new TeamConfig(
          Map.of("eks", "nlp-jobs"),
          List.of("eks", "local"),
          new BigDecimal("20000"),
          "queue",
          List.of("us-east-1"));

  private final List<String> problems = new ArrayList<>();

  @Test
  void aTeamsSettingsRoundTripThroughAttributes() {
    var attributes = TeamAttributes.of(NLP);

    assertThat(TeamAttributes.isTeam(attributes)).isTrue();
    assertThat(attributes)
        .containsEntry("trainyard.backends", List.of("eks", "local"))
        .containsEntry("trainyard.namespaces", List.of("eks=nlp-jobs"))
        .containsEntry("trainyard.monthlyBudgetUsd", List.of("20000"));
    assertThat(TeamAttributes.merge("nlp", TeamConfig.DEV, attributes, problems)).isEqualTo(NLP);
    assertThat(problems).isEmpty();
  }

  @Test
  void anEmptyTeamIsOnlyMarked() {
    assertThat(TeamAttributes.of(TeamConfig.DEV)).containsOnlyKeys(TeamAttributes.MARKER);
  }

  @Test
  void presentAttributesReplaceSettingsAndAbsentOnesLeaveThem() {
    var merged =
        TeamAttributes.merge(
            "nlp",
            NLP,
            Map.of(
                "trainyard.regions", List.of("eu-west-1", " "),
                "trainyard.monthlyBudgetUsd", List.of("500.50"),
                "unrelated", List.of("x")),
            problems);

    assertThat(merged.regions()).containsExactly("eu-west-1");
    assertThat(merged.monthlyBudgetUsd()).isEqualByComparingTo("500.50");
    assertThat(merged.backends()).isEqualTo(NLP.backends());
    assertThat(merged.namespaces()).isEqualTo(NLP.namespaces());
    assertThat(merged.overBudget()).isEqualTo("queue");
  }

  @Test
  void anEmptyListAttributeClearsTheSetting() {
    var merged =
        TeamAttributes.merge("nlp", NLP, Map.of("trainyard.backends", List.of()), problems);

    assertThat(merged.backends()).isEmpty();
  }

  @Test
  void unreadableValuesAreReportedAndTheConfigKept() {
    var merged =
        TeamAttributes.merge(
            "nlp",
            NLP,
            Map.of(
                "trainyard.monthlyBudgetUsd", List.of("lots"),
                "trainyard.overBudget", List.of("panic"),
                "trainyard.namespaces", List.of("eks")),
            problems);

    assertThat(merged).isEqualTo(NLP);
    assertThat(problems)
        .hasSize(3)
        .anySatisfy(p -> assertThat(p).contains("monthlyBudgetUsd 'lots'"))
        .anySatisfy(p -> assertThat(p).contains("overBudget 'panic'"))
        .anySatisfy(p -> assertThat(p).contains("'eks' is not backend=namespace"));
  }

  @Test
  void aNegativeBudgetIsRefused() {
    TeamAttributes.merge("nlp", NLP, Map.of("trainyard.monthlyBudgetUsd", List.of("-1")), problems);

    assertThat(problems).singleElement().asString().contains("not an amount");
  }

  @Test
  void onlyTheMarkerMakesAGroupATeam() {
    assertThat(TeamAttributes.isTeam(null)).isFalse();
    assertThat(TeamAttributes.isTeam(Map.of("trainyard.team", List.of("false")))).isFalse();
    assertThat(TeamAttributes.isTeam(Map.of("trainyard.backends", List.of("local")))).isFalse();
  }
}
