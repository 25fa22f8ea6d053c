package io.routegateway.gateway;

import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The fence of the gateway's request path: {@code forward/} (the exchange, its responders, its
 * settlement) never reaches up into {@code http/} (the front door, the routes, the listings); no
 * folder depends on another in a cycle; and only the exchange and what answers for it hold mutable
 * state — every other field of {@code forward/} and {@code http/} is final, so a dependency every
 * request shares cannot be changed by one of them.
 */
class GatewayArchitectureTests {

    static final String ROOT = "io.routegateway.gateway";

    /**
     * The types allowed mutable fields: one request's state machine and its responders, the
     * settlement's once-only flag, the turn's write batching, the affinity table that is
     * replaced when the runtime settings resize it, and an attempt's secret matcher, built on the
     * first answer it scans (the attempt's own, on its event loop).
     */
    static final Set<String> MUTABLE = Set.of(
            "RequestExchange",
            "StreamAnswer",
            "PassthroughStream",
            "TranslatedStream",
            "Settlement",
            "TurnWrites",
            "ForwardingService",
            "CredentialMask");

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void forwardDoesNotDependOnHttp() {
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".forward..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(ROOT + ".http..")
                .check(CLASSES);
    }

    @Test
    void theFoldersHaveNoCycle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void onlyTheExchangeAndItsRespondersHoldMutableState() {
        fields().that()
                .areDeclaredInClassesThat(
                        new DescribedPredicate<JavaClass>("forward or http, not allowed mutable state") {
                            @Override
                            public boolean test(JavaClass type) {
                                String pkg = type.getPackageName();
                                boolean onThePath = pkg.equals(ROOT + ".forward") || pkg.equals(ROOT + ".http");
                                return onThePath
                                        && !MUTABLE.contains(
                                                type.getSimpleName().replaceAll("\\$.*", ""))
                                        && !MUTABLE.contains(outermost(type).getSimpleName());
                            }
                        })
                .and()
                .areNotStatic()
                .should()
                .haveModifier(JavaModifier.FINAL)
                .check(CLASSES);
    }

    private static JavaClass outermost(JavaClass type) {
        JavaClass outer = type;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }
}
