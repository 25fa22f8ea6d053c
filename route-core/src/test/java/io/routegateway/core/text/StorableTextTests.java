package io.routegateway.core.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StorableTextTests {

    @Test
    void nulAndUnpairedSurrogatesAreUnstorableAndValidPairsAreKept() {
        assertThat(StorableText.isStorable(null)).isTrue();
        assertThat(StorableText.isStorable("gpt-5 模型 \uD83D\uDE00")).isTrue();
        assertThat(StorableText.firstUnstorable("mock\u0000model")).isEqualTo(4);
        assertThat(StorableText.firstUnstorable("a\uD800")).isEqualTo(1);
        assertThat(StorableText.firstUnstorable("\uDC00a")).isZero();
        assertThat(StorableText.firstUnstorable("\uD800\uD800\uDC00")).isZero();
    }

    @Test
    void sanitiseReplacesEveryUnstorableCharacterAndKeepsTheRest() {
        assertThat(StorableText.sanitise(null)).isNull();
        String clean = "already fine \uD83D\uDE00";
        assertThat(StorableText.sanitise(clean)).isSameAs(clean);
        assertThat(StorableText.sanitise("mock\u0000model")).isEqualTo("mock\uFFFDmodel");
        assertThat(StorableText.sanitise("\u0000\uD800x\uDC00\uD83D\uDE00\uD83D"))
                .isEqualTo("\uFFFD\uFFFDx\uFFFD\uD83D\uDE00\uFFFD");
        assertThat(StorableText.isStorable(StorableText.sanitise("\uDBFF\u0000\uDFFF")))
                .isTrue();
    }

    @Test
    void truncateCutsWithAnEllipsisAndNeverSplitsAPair() {
        assertThat(StorableText.truncate("abcdef", 6)).isEqualTo("abcdef");
        assertThat(StorableText.truncate("abcdef", 3)).isEqualTo("abc…");
        assertThat(StorableText.truncate("ab\uD83D\uDE00cd", 3)).isEqualTo("ab…");
        assertThat(StorableText.truncate(null, 3)).isNull();
    }

    @Test
    void controlCharactersAreNotSingleLine() {
        for (String control : new String[] {"\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u2028", "\u2029"}) {
            String text = "a" + control + "b";
            assertThat(StorableText.hasControl(text))
                    .as("U+%04X", (int) control.charAt(0))
                    .isTrue();
            assertThat(StorableText.isSingleLine(text, 100))
                    .as("U+%04X", (int) control.charAt(0))
                    .isFalse();
        }
    }

    @Test
    void singleLineNeedsStorableTextWithinTheLength() {
        assertThat(StorableText.isSingleLine(null, 1)).isTrue();
        assertThat(StorableText.isSingleLine("gpt-4o <b>x</b> 'quoted'", 100)).isTrue();
        assertThat(StorableText.isSingleLine("abc", 2)).isFalse();
        assertThat(StorableText.isSingleLine("a\u0000", 10)).isFalse();
        assertThat(StorableText.isSingleLine("a\uD800", 10)).isFalse();
    }
}
