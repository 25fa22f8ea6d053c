package io.routegateway.state;

import java.util.List;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The fence of state-service's layout: a feature folder does not depend on another feature folder
 * (shared folders are free to use, and do not depend on features), and the types that decide — every
 * {@code *Rules}, {@code *View} and {@code *Views} type and the diff types of the event applier — do
 * no I/O: no Quarkus, SmallRye, Vert.x, Hibernate or Kafka type and no repository.
 */
class StateArchitectureTests {

    static final String ROOT = "io.routegateway.state";

    /** Folders that own one admin feature each. */
    static final List<String> FEATURES = List.of(
            "credential",
            "group",
            "accesskey",
            "team",
            "settings",
            "usage",
            "routecheck",
            "poolhealth",
            // API tokens for automation (issue 39)
            "apitoken",
            // the audit log's listing (issue 39)
            "audit");

    /** Folders every feature may use. */
    static final List<String> SHARED = List.of(
            "outcome",
            "pool",
            "recovery",
            "web",
            "publish",
            "repository",
            "config",
            "health",
            "oauth",
            "metrics",
            "spend",
            "webhook",
            "hostpolicy",
            // who calls the admin API and what the caller may do: authentication, the endpoint
            // guard, the audit trail every admin write appends to (issue 39)
            "identity",
            // the producer signatures on route.outcomes and route.usage, checked before either is read (issue 37)
            "signing");

    private static final String[] IO = {
        "io.quarkus..",
        "io.smallrye..",
        "io.vertx..",
        "jakarta.persistence..",
        "org.hibernate..",
        "org.apache.kafka..",
        ROOT + ".repository.."
    };

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    static Stream<String> features() {
        return FEATURES.stream();
    }

    @ParameterizedTest(name = "{0} depends on no other feature")
    @MethodSource("features")
    void aFeatureDependsOnNoOtherFeature(String feature) {
        String[] others = FEATURES.stream()
                .filter(other -> !other.equals(feature))
                .map(other -> ROOT + "." + other + "..")
                .toArray(String[]::new);
        noClasses()
                .that()
                .resideInAPackage(ROOT + "." + feature + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(others)
                .check(CLASSES);
    }

    @Test
    void sharedFoldersDependOnNoFeature() {
        noClasses()
                .that()
                .resideInAnyPackage(SHARED.stream()
                        .map(shared -> ROOT + "." + shared + "..")
                        .toArray(String[]::new))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(FEATURES.stream()
                        .map(feature -> ROOT + "." + feature + "..")
                        .toArray(String[]::new))
                .check(CLASSES);
    }

    @Test
    void everyFolderIsAFeatureOrShared() {
        noClasses()
                .should()
                .resideOutsideOfPackages(Stream.concat(FEATURES.stream(), SHARED.stream())
                        .map(folder -> ROOT + "." + folder + "..")
                        .toArray(String[]::new))
                .check(CLASSES);
    }

    @Test
    void rulesViewsAndDiffsDoNoIo() {
        noClasses()
                .that()
                .haveNameMatching(".*\\.[A-Za-z]*(Rules|View|Views|Diff|ApplyResult)(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO)
                .check(CLASSES);
    }
}
