package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/spec-coverage.md} is how an operator finds the test that guards a spec rule, so every test it
 * names must exist: a renamed or deleted test method fails the build here instead of leaving the row
 * pointing at nothing. Checks the last column of every table row: {@code Class#method},
 * {@code Class$Nested#method}, a bare {@code #method} continuing the previous class, and the console's
 * {@code *.test.ts(x)} files.
 */
class SpecCoverageReferencesTests {

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern CLASS_REFERENCE =
            Pattern.compile("^(?:[\\w/.]+/)?([A-Z]\\w*)((?:\\$\\w+)*)(?:#(\\w+))?(?:…)?$");
    private static final Pattern METHOD_ONLY = Pattern.compile("^#(\\w+)$");
    private static final Pattern DECLARED_TYPE = Pattern.compile("\\b(?:class|record|interface|enum)\\s+(\\w+)");

    private static final Map<String, List<String>> SOURCES_BY_TYPE = new HashMap<>();
    private static final List<String> CONSOLE_TEST_FILES = new ArrayList<>();

    @BeforeAll
    static void indexTheTestSources() throws IOException {
        Path root = RepoPaths.root();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String path = root.relativize(file).toString();
                if (path.contains("node_modules") || path.contains("/target/") || path.startsWith(".")) {
                    continue;
                }
                if (path.contains("/src/test/java/") && path.endsWith(".java")) {
                    String source = Files.readString(file);
                    Matcher type = DECLARED_TYPE.matcher(source);
                    while (type.find()) {
                        SOURCES_BY_TYPE
                                .computeIfAbsent(type.group(1), name -> new ArrayList<>())
                                .add(source);
                    }
                } else if (path.startsWith("console/src/") && path.matches(".*\\.test\\.tsx?$")) {
                    CONSOLE_TEST_FILES.add(file.getFileName().toString());
                }
            }
        }
    }

    @Test
    void everyTestTheCoverageDocumentNamesExists() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String line : Files.readAllLines(RepoPaths.root().resolve("docs/spec-coverage.md"))) {
            if (!line.startsWith("|") || line.startsWith("|---")) {
                continue;
            }
            String[] columns = line.split("\\|");
            if (columns.length < 4) {
                continue;
            }
            String testColumn =
                    columns[columns.length - 1].isBlank() ? columns[columns.length - 2] : columns[columns.length - 1];
            String currentClass = null;
            Matcher span = CODE_SPAN.matcher(testColumn);
            while (span.find()) {
                String token = span.group(1).strip();
                if (token.matches("[\\w.]+\\.test\\.tsx?")) {
                    checked++;
                    if (!CONSOLE_TEST_FILES.contains(token)) {
                        problems.add("no console test file " + token);
                    }
                    continue;
                }
                String method;
                Matcher reference = CLASS_REFERENCE.matcher(token);
                Matcher methodOnly = METHOD_ONLY.matcher(token);
                if (reference.matches()) {
                    currentClass = reference.group(1);
                    method = reference.group(3);
                    for (String nested : reference.group(2).split("\\$")) {
                        if (!nested.isEmpty() && !SOURCES_BY_TYPE.containsKey(nested)) {
                            problems.add("no nested test class " + token);
                        }
                    }
                } else if (methodOnly.matches() && currentClass != null) {
                    method = methodOnly.group(1);
                } else {
                    continue;
                }
                if (!SOURCES_BY_TYPE.containsKey(currentClass)) {
                    if (currentClass.endsWith("Tests") || currentClass.endsWith("IT") || method != null) {
                        problems.add("no test class " + currentClass + " (" + token + ")");
                    }
                    continue;
                }
                checked++;
                if (method != null && !declares(currentClass, method)) {
                    problems.add("no method " + currentClass + "#" + method);
                }
            }
        }
        assertThat(checked).as("references checked").isGreaterThan(300);
        assertThat(problems).as("tests named in docs/spec-coverage.md").isEmpty();
    }

    private static boolean declares(String type, String method) {
        Pattern declaration = Pattern.compile("\\b" + Pattern.quote(method) + "\\s*\\(");
        return SOURCES_BY_TYPE.get(type).stream()
                .anyMatch(source -> declaration.matcher(source).find());
    }
}
