package io.routegateway.state.outcome;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The apply decision types (ApplyResult, HealthDiff) decide, they do no I/O: no framework, persistence or Kafka types in them. */
class ApplyPackageArchitectureTests {

    @Test
    void applyDependsOnNoFrameworkPersistenceOrKafka() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.routegateway.state.outcome");
        noClasses()
                .that()
                .haveNameMatching("io\\.routegateway\\.state\\.outcome\\.(ApplyResult|HealthDiff)(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.quarkus..",
                        "io.smallrye..",
                        "io.vertx..",
                        "jakarta.persistence..",
                        "org.hibernate..",
                        "org.apache.kafka..")
                .check(classes);
    }
}
