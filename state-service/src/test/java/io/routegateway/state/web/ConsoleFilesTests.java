package io.routegateway.state.web;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The console file handler's choices, without a server. */
class ConsoleFilesTests {

    private static final ConsoleFiles.Variants ALL = new ConsoleFiles.Variants(new byte[3], new byte[2], new byte[1]);
    private static final ConsoleFiles.Variants GZIP_ONLY = new ConsoleFiles.Variants(new byte[3], new byte[2], null);
    private static final ConsoleFiles.Variants NONE = new ConsoleFiles.Variants(new byte[3], null, null);

    @Test
    void brotliIsPreferredThenGzipAndARefusedCodingIsNeverSent() {
        assertThat(ConsoleFiles.chooseEncoding("gzip, deflate, br", ALL)).isEqualTo("br");
        assertThat(ConsoleFiles.chooseEncoding("gzip, deflate, br", GZIP_ONLY)).isEqualTo("gzip");
        assertThat(ConsoleFiles.chooseEncoding("gzip", ALL)).isEqualTo("gzip");
        assertThat(ConsoleFiles.chooseEncoding("br;q=0, gzip", ALL)).isEqualTo("gzip");
        assertThat(ConsoleFiles.chooseEncoding("br;q=0.000, gzip;q=0", ALL)).isEqualTo("identity");
        assertThat(ConsoleFiles.chooseEncoding("*", ALL)).isEqualTo("gzip");
        assertThat(ConsoleFiles.chooseEncoding(null, ALL)).isEqualTo("identity");
        assertThat(ConsoleFiles.chooseEncoding("br, gzip", NONE)).isEqualTo("identity");
    }

    @Test
    void onlyPlainNamesUnderTheConsoleAreFiles() {
        assertThat(ConsoleFiles.relativeName("/console/")).contains("index.html");
        assertThat(ConsoleFiles.relativeName("/console/assets/index-Ab12.js")).contains("assets/index-Ab12.js");
        assertThat(ConsoleFiles.relativeName("/console/../application.properties"))
                .isEmpty();
        assertThat(ConsoleFiles.relativeName("/console/assets/..")).isEmpty();
        assertThat(ConsoleFiles.relativeName("/console//etc/passwd")).isEmpty();
        assertThat(ConsoleFiles.relativeName("/console/a b.js")).isEmpty();
        assertThat(ConsoleFiles.relativeName("/console/\u0000.js")).isEmpty();
        assertThat(ConsoleFiles.relativeName("/admin/v1/credentials")).isEqualTo(Optional.empty());
    }

    @Test
    void indexIsRevalidatedAssetsAreImmutable() {
        assertThat(ConsoleFiles.cacheControl("index.html")).isEqualTo("no-cache");
        assertThat(ConsoleFiles.cacheControl("assets/index-Ab12.js")).isEqualTo("public, max-age=31536000, immutable");
        assertThat(ConsoleFiles.cacheControl("favicon.svg")).isEqualTo("public, max-age=3600");
        assertThat(ConsoleFiles.contentType("assets/x.js")).startsWith("text/javascript");
        assertThat(ConsoleFiles.contentType("favicon.svg")).isEqualTo("image/svg+xml");
    }

    @Test
    void anIfNoneMatchListMatchesStrongAndWeakFormsOfTheTag() {
        String tag = ConditionalGetFilter.etag("[1]".getBytes());
        assertThat(tag).startsWith("\"").endsWith("\"").isNotEqualTo(ConditionalGetFilter.etag("[2]".getBytes()));
        assertThat(ConditionalGetFilter.matches(tag, tag)).isTrue();
        assertThat(ConditionalGetFilter.matches("\"other\", W/" + tag, tag)).isTrue();
        assertThat(ConditionalGetFilter.matches("*", tag)).isTrue();
        assertThat(ConditionalGetFilter.matches("\"other\"", tag)).isFalse();
        assertThat(ConditionalGetFilter.matches(null, tag)).isFalse();
    }
}
