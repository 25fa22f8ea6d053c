package io.routegateway.state.web;

import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every admin field has a bound; one row per refused input, each with its code and without the value echoed. */
class InputsTests {

    private static final String NUL = "\u0000";
    private static final String LONE = "\uD800";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    @Test
    void names() {
        refused(() -> Inputs.name("team" + NUL), AdminCodes.NAME);
        refused(() -> Inputs.name("team" + LONE), AdminCodes.NAME);
        refused(() -> Inputs.name("line\nbreak"), AdminCodes.NAME);
        refused(() -> Inputs.name("x".repeat(Inputs.MAX_NAME + 1)), AdminCodes.NAME);
        refused(() -> Inputs.name(MEGABYTE), AdminCodes.NAME);
        assertThat(Inputs.name("  <b>Team</b> 'A' \uD83D\uDE00 ")).isEqualTo("<b>Team</b> 'A' \uD83D\uDE00");
        assertThat(Inputs.name("n".repeat(Inputs.MAX_NAME))).hasSize(Inputs.MAX_NAME);
    }

    @Test
    void ids() {
        refused(() -> Inputs.idOrNew("cred" + NUL, "cred"), AdminCodes.ID);
        refused(() -> Inputs.idOrNew("c".repeat(Inputs.MAX_ID + 1), "cred"), AdminCodes.ID);
        refused(() -> Inputs.ids(List.of("grp" + NUL), AdminCodes.GROUP_IDS, 10), AdminCodes.GROUP_IDS);
        refused(() -> Inputs.ids(List.of(MEGABYTE), AdminCodes.GROUP_IDS, 10), AdminCodes.GROUP_IDS);
        refused(() -> Inputs.ids(List.of("a b"), AdminCodes.CREDENTIAL_IDS, 10), AdminCodes.CREDENTIAL_IDS);
        refused(
                () -> Inputs.ids(
                        Collections.nCopies(Inputs.MAX_GROUP_IDS + 1, "grp-a"),
                        AdminCodes.GROUP_IDS,
                        Inputs.MAX_GROUP_IDS),
                AdminCodes.GROUP_IDS);
        refused(() -> Inputs.refId("cred" + LONE, AdminCodes.CREDENTIAL_IDS), AdminCodes.CREDENTIAL_IDS);
        assertThat(Inputs.idOrNew("c".repeat(Inputs.MAX_ID), "cred")).hasSize(Inputs.MAX_ID);
        assertThat(Inputs.ids(List.of(" grp-a ", "grp-a", "grp-b"), AdminCodes.GROUP_IDS, 3))
                .containsExactly("grp-a", "grp-b");
    }

    @Test
    void secrets() {
        refused(() -> Inputs.secret("sk-" + NUL, "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret("sk-a\r\nX-Injected: 1", "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret("sk a", "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret("sk-é", "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret("s".repeat(Inputs.MAX_SECRET + 1), "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret(MEGABYTE, "required"), AdminCodes.SECRET);
        refused(() -> Inputs.secret("  ", "required"), AdminCodes.SECRET);
        assertThat(Inputs.secret(" " + "s".repeat(Inputs.MAX_SECRET) + " ", "required"))
                .hasSize(Inputs.MAX_SECRET);
    }

    @Test
    void baseUrls() {
        refused(() -> Inputs.baseUrl("https://relay.example" + NUL + ".test"), AdminCodes.BASE_URL);
        refused(() -> Inputs.baseUrl("https://relay.example.test/\u0007"), AdminCodes.BASE_URL);
        refused(
                () -> Inputs.baseUrl("https://relay.example.test/" + "p".repeat(Inputs.MAX_BASE_URL)),
                AdminCodes.BASE_URL);
        refused(() -> Inputs.baseUrl("https://" + MEGABYTE), AdminCodes.BASE_URL);
        refused(() -> Inputs.baseUrl("javascript:alert(1)"), AdminCodes.BASE_URL);
        String longest = "https://relay.example.test/" + "p".repeat(Inputs.MAX_BASE_URL - 27);
        assertThat(Inputs.baseUrl(longest)).hasSize(Inputs.MAX_BASE_URL);
    }

    @Test
    void modelNamesAndLists() {
        refused(() -> Inputs.models(List.of("gpt" + NUL)), AdminCodes.MODELS);
        refused(() -> Inputs.models(List.of("gpt" + LONE)), AdminCodes.MODELS);
        refused(() -> Inputs.models(List.of("gpt\t4")), AdminCodes.MODELS);
        refused(() -> Inputs.models(List.of("m".repeat(Inputs.MAX_MODEL + 1))), AdminCodes.MODELS);
        refused(() -> Inputs.models(Collections.nCopies(Inputs.MAX_MODELS + 1, "gpt-4o")), AdminCodes.MODELS);
        refused(() -> Inputs.modelName("m" + NUL, AdminCodes.MODEL_KEY, "the model key"), AdminCodes.MODEL_KEY);
        refused(() -> Inputs.modelName(MEGABYTE, AdminCodes.MODEL_KEY, "the model key"), AdminCodes.MODEL_KEY);
        assertThat(Inputs.models(List.of("gpt-*", "m".repeat(Inputs.MAX_MODEL))))
                .hasSize(2);
    }

    @Test
    void protocols() {
        refused(() -> Inputs.protocols(List.of("openai_chat" + NUL)), AdminCodes.PROTOCOL);
        refused(() -> Inputs.protocols(List.of(MEGABYTE)), AdminCodes.PROTOCOL);
        refused(
                () -> Inputs.protocols(Collections.nCopies(Inputs.MAX_PROTOCOL_ENTRIES + 1, "openai_chat")),
                AdminCodes.PROTOCOL);
    }

    @Test
    void echoedValuesAreShortAndSingleLine() {
        assertThat(Inputs.echo("gpt-4o")).isEqualTo("'gpt-4o'");
        assertThat(Inputs.echo(MEGABYTE)).isEqualTo("(a value of 1048576 characters)");
        assertThat(Inputs.echo("a\nb")).isEqualTo("(a value of 3 characters)");
    }

    private static void refused(Supplier<?> input, String code) {
        assertThatThrownBy(input::get).isInstanceOfSatisfying(AdminException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).hasSizeLessThan(300).doesNotContain(NUL).doesNotContain("xxxxxxxx");
        });
    }
}
