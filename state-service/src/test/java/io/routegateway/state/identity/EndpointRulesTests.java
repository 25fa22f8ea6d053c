package io.routegateway.state.identity;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;

import jakarta.ws.rs.Path;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AdminEndpoints;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every JAX-RS resource method under {@code /admin} has its rule in {@link AdminEndpoints} (a new
 * endpoint fails this test until it declares which roles reach it), and every rule names a resource
 * method that exists (no stale rule hides a renamed path).
 */
class EndpointRulesTests {

    static Set<String> adminResourceMethods() {
        Set<String> keys = new TreeSet<>();
        for (JavaClass javaClass : new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.routegateway.state")) {
            if (!javaClass.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> resource = javaClass.reflect();
            for (Method method : resource.getDeclaredMethods()) {
                EndpointKeys.of(resource, method)
                        .filter(key ->
                                key.contains(" " + AdminEndpoints.BASE + "/") || key.endsWith(AdminEndpoints.BASE))
                        .ifPresent(keys::add);
            }
        }
        return keys;
    }

    @Test
    void everyAdminResourceMethodHasARule() {
        Set<String> methods = adminResourceMethods();
        // the admin API has dozens of endpoints: an empty scan would make this test vacuous
        assertThat(methods).hasSizeGreaterThan(50);
        Set<String> missing = new TreeSet<>();
        for (String key : methods) {
            if (AdminEndpoints.byKey(key) == null) {
                missing.add(key);
            }
        }
        assertThat(missing)
                .as("admin endpoints without a rule in route-core identity/AdminEndpoints: add one")
                .isEmpty();
    }

    @Test
    void everyRuleNamesAnExistingResourceMethod() {
        Set<String> methods = adminResourceMethods();
        Set<String> stale = new TreeSet<>();
        for (AdminEndpoint rule : AdminEndpoints.all()) {
            if (!methods.contains(rule.key())) {
                stale.add(rule.key());
            }
        }
        assertThat(stale).as("rules naming no resource method").isEmpty();
    }
}
