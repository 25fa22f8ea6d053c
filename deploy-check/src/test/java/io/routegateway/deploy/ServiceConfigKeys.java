package io.routegateway.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The configuration keys a service really has, read from its sources at build time:
 *
 * <ul>
 *   <li>every key of {@code src/main/resources/application.properties} (profile prefixes removed);
 *   <li>every key of the {@code @ConfigMapping} interfaces under {@code src/main/java} (prefix, nested interfaces,
 *       kebab-case method names, {@code @WithName}, {@code @WithParentName}), and every
 *       {@code @ConfigProperty(name = ...)}, of the service and of the repository modules it depends on (with
 *       their {@code META-INF/microprofile-config.properties});
 *   <li>the standard Quarkus and Kafka keys of {@link #STANDARD_KEYS}, each accepted only when the service depends
 *       on an extension that reads it.
 * </ul>
 *
 * An environment variable maps to a key when the key, with every non-alphanumeric character replaced by
 * {@code _} and upper-cased, equals the variable's name (the MicroProfile Config environment rule).
 */
final class ServiceConfigKeys {

    /** A standard key the chart may set although the service does not declare it itself. */
    record StandardKey(String key, Set<String> anyOfExtensions, String reason) {}

    private static final Set<String> KAFKA_EXTENSIONS = Set.of("quarkus-messaging-kafka", "quarkus-kafka-client");
    private static final String KAFKA_REASON =
            "Quarkus passes every kafka.* property and KAFKA_* variable to all Kafka clients "
                    + "(KafkaRuntimeConfigProducer, the default-kafka-broker configuration)";

    static final List<StandardKey> STANDARD_KEYS = List.of(
            new StandardKey(
                    "quarkus.http.port",
                    Set.of(
                            "quarkus-vertx-http",
                            "quarkus-rest",
                            "quarkus-rest-jackson",
                            "quarkus-smallrye-health",
                            "quarkus-micrometer-registry-prometheus"),
                    "HTTP port of the Quarkus HTTP server"),
            new StandardKey("quarkus.log.level", Set.of(), "root log level, Quarkus core"),
            new StandardKey("kafka.bootstrap.servers", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.security.protocol", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.sasl.mechanism", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.sasl.jaas.config", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.ssl.truststore.type", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.ssl.truststore.location", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.ssl.keystore.type", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.ssl.keystore.location", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey("kafka.ssl.keystore.password", KAFKA_EXTENSIONS, KAFKA_REASON),
            new StandardKey(
                    "quarkus.datasource.username",
                    Set.of("quarkus-reactive-pg-client", "quarkus-jdbc-postgresql"),
                    "default datasource credentials"),
            new StandardKey(
                    "quarkus.datasource.password",
                    Set.of("quarkus-reactive-pg-client", "quarkus-jdbc-postgresql"),
                    "default datasource credentials"),
            new StandardKey(
                    "quarkus.datasource.reactive.url",
                    Set.of("quarkus-reactive-pg-client"),
                    "URL of the reactive PostgreSQL client"),
            new StandardKey(
                    "quarkus.datasource.jdbc.url", Set.of("quarkus-jdbc-postgresql"), "JDBC URL (Flyway migrations)"),
            new StandardKey(
                    "quarkus.otel.exporter.otlp.traces.endpoint",
                    Set.of("quarkus-opentelemetry"),
                    "the OTLP collector the traces are exported to (docs/observability.md#traces)"));

    private static final Pattern PROFILE_PREFIX = Pattern.compile("^%[^.]+\\.");
    private static final Pattern EXPRESSION_DEFAULT = Pattern.compile("^\\$\\{[^:}]+:([^}]*)}$");
    private static final Set<String> CONTAINERS = Set.of("Optional", "List", "Set", "Collection", "SortedSet");

    private final String service;
    /** Key → where it was found. */
    private final Map<String, String> keys;

    private final Set<String> extensions;
    private final Properties applicationProperties;

    private ServiceConfigKeys(
            String service, Map<String, String> keys, Set<String> extensions, Properties applicationProperties) {
        this.service = service;
        this.keys = keys;
        this.extensions = extensions;
        this.applicationProperties = applicationProperties;
    }

    static ServiceConfigKeys scan(Path serviceDir) {
        String service = serviceDir.getFileName().toString();
        Map<String, String> keys = new LinkedHashMap<>();
        Properties properties = loadProperties(serviceDir.resolve("src/main/resources/application.properties"));
        for (String name : properties.stringPropertyNames()) {
            keys.putIfAbsent(PROFILE_PREFIX.matcher(name).replaceFirst(""), "application.properties");
        }
        // The service and the modules of this repository it depends on (e.g. a shared library with the
        // @ConfigMapping of the keys every service has): their mappings and microprofile-config.properties.
        List<Path> modules = modulesOf(serviceDir);
        List<Path> sourceRoots = new ArrayList<>();
        Set<String> extensions = new TreeSet<>();
        for (Path module : modules) {
            Path sources = module.resolve("src/main/java");
            if (Files.isDirectory(sources)) {
                sourceRoots.add(sources);
            }
            Properties library =
                    loadProperties(module.resolve("src/main/resources/META-INF/microprofile-config.properties"));
            for (String name : library.stringPropertyNames()) {
                keys.putIfAbsent(
                        PROFILE_PREFIX.matcher(name).replaceFirst(""),
                        module.getFileName() + "/META-INF/microprofile-config.properties");
            }
            extensions.addAll(dependencyArtifacts(module.resolve("pom.xml")));
        }
        new MappingScanner(serviceDir.getParent(), sourceRoots).scan().forEach(keys::putIfAbsent);
        for (StandardKey standard : STANDARD_KEYS) {
            if (standard.anyOfExtensions().isEmpty()
                    || standard.anyOfExtensions().stream().anyMatch(extensions::contains)) {
                keys.putIfAbsent(standard.key(), "standard key: " + standard.reason());
            }
        }
        return new ServiceConfigKeys(service, keys, extensions, properties);
    }

    /** The service directory followed by every module of the repository it depends on, transitively. */
    static List<Path> modulesOf(Path serviceDir) {
        Path repository = serviceDir.getParent();
        List<Path> modules = new ArrayList<>();
        List<Path> pending = new ArrayList<>(List.of(serviceDir));
        while (!pending.isEmpty()) {
            Path module = pending.remove(0);
            if (modules.contains(module)) {
                continue;
            }
            modules.add(module);
            for (String artifact : dependencyArtifacts(module.resolve("pom.xml"))) {
                Path candidate = repository.resolve(artifact);
                if (Files.isRegularFile(candidate.resolve("pom.xml"))
                        && artifact.equals(artifactId(candidate.resolve("pom.xml")))) {
                    pending.add(candidate);
                }
            }
        }
        return modules;
    }

    private static String artifactId(Path pom) {
        return text(parseXml(pom).getDocumentElement(), "artifactId");
    }

    String service() {
        return service;
    }

    Set<String> keys() {
        return new TreeSet<>(keys.keySet());
    }

    /** {@code quarkus.http.port} of application.properties (a {@code ${VAR:default}} expression gives its default). */
    OptionalInt httpPort() {
        return port("quarkus.http.port");
    }

    /** {@code quarkus.management.port} of the service's application.properties (health and metrics). */
    OptionalInt managementPort() {
        return port("quarkus.management.port");
    }

    private OptionalInt port(String key) {
        String port = applicationProperties.getProperty(key);
        if (port == null) {
            return OptionalInt.empty();
        }
        Matcher expression = EXPRESSION_DEFAULT.matcher(port.trim());
        String value = expression.matches() ? expression.group(1) : port.trim();
        try {
            return OptionalInt.of(Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** The key an environment variable sets, with where the key was found; empty when it sets none. */
    Optional<String> keyFor(String environmentVariable) {
        for (Map.Entry<String, String> key : keys.entrySet()) {
            if (envPattern(key.getKey()).matcher(environmentVariable).matches()) {
                return Optional.of(key.getKey() + " (" + key.getValue() + ")");
            }
        }
        return Optional.empty();
    }

    /** Explains why an environment variable maps to nothing, naming the standard key it would need if any. */
    String explainMissing(String environmentVariable) {
        for (StandardKey standard : STANDARD_KEYS) {
            if (envPattern(standard.key()).matcher(environmentVariable).matches()) {
                return environmentVariable + " would set the standard key " + standard.key() + ", but " + service
                        + " depends on none of " + new TreeSet<>(standard.anyOfExtensions());
            }
        }
        return environmentVariable + " maps to no config key of " + service
                + ": not in application.properties, no @ConfigMapping/@ConfigProperty in its sources or the "
                + "repository modules it depends on, "
                + "not an allowed standard key";
    }

    Set<String> extensions() {
        return extensions;
    }

    /** MicroProfile Config: non-alphanumeric characters become '_', then upper case; '*' stands for a map key. */
    static Pattern envPattern(String key) {
        StringBuilder regex = new StringBuilder();
        for (String part : key.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append("[A-Z0-9_]+");
            }
            regex.append(Pattern.quote(part.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT)));
        }
        return Pattern.compile(regex.toString());
    }

    static String toEnvironmentVariable(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private static Properties loadProperties(Path file) {
        Properties properties = new Properties();
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file)) {
                properties.load(reader);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }
        return properties;
    }

    /** Artifact ids of the non-test dependencies of a pom and of its parents found in the repository. */
    static Set<String> dependencyArtifacts(Path pom) {
        Set<String> artifacts = new TreeSet<>();
        Path current = pom;
        Set<Path> seen = new HashSet<>();
        while (current != null
                && Files.isRegularFile(current)
                && seen.add(current.toAbsolutePath().normalize())) {
            Element project = parseXml(current).getDocumentElement();
            for (Element dependencies : children(project, "dependencies")) {
                for (Element dependency : children(dependencies, "dependency")) {
                    String scope = text(dependency, "scope");
                    if (!"test".equals(scope)) {
                        artifacts.add(text(dependency, "artifactId"));
                    }
                }
            }
            current = parentPom(current, project);
        }
        return artifacts;
    }

    private static Path parentPom(Path pom, Element project) {
        List<Element> parents = children(project, "parent");
        if (parents.isEmpty()) {
            return null;
        }
        String relativePath = text(parents.get(0), "relativePath");
        Path candidate = pom.getParent().resolve(relativePath == null ? ".." : relativePath);
        return Files.isDirectory(candidate) ? candidate.resolve("pom.xml") : candidate;
    }

    private static Document parseXml(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        } catch (Exception e) {
            throw new IllegalStateException("cannot parse " + file, e);
        }
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> result = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && name.equals(element.getTagName())) {
                result.add(element);
            }
        }
        return result;
    }

    private static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }

    /** Reads @ConfigMapping interfaces and @ConfigProperty names from Java sources. */
    static final class MappingScanner {

        private final Path repository;
        private final List<Path> sourceRoots;
        private final Map<String, ClassOrInterfaceDeclaration> interfaces = new HashMap<>();
        private final Map<String, String> keys = new LinkedHashMap<>();

        MappingScanner(Path repository, List<Path> sourceRoots) {
            this.repository = repository;
            this.sourceRoots = sourceRoots;
        }

        Map<String, String> scan() {
            List<CompilationUnit> units = parseAll();
            for (CompilationUnit unit : units) {
                for (ClassOrInterfaceDeclaration type : unit.findAll(ClassOrInterfaceDeclaration.class)) {
                    if (type.isInterface()) {
                        interfaces.put(type.getNameAsString(), type);
                    }
                }
            }
            for (CompilationUnit unit : units) {
                String file = unit.getStorage()
                        .map(storage -> repository.relativize(storage.getPath()).toString())
                        .orElse("?");
                for (ClassOrInterfaceDeclaration type : unit.findAll(ClassOrInterfaceDeclaration.class)) {
                    type.getAnnotationByName("ConfigMapping")
                            .flatMap(annotation -> member(annotation, "prefix"))
                            .ifPresent(prefix -> expand(prefix, type, "@ConfigMapping in " + file, new HashSet<>()));
                }
                for (AnnotationExpr annotation : unit.findAll(AnnotationExpr.class)) {
                    if (annotation.getNameAsString().equals("ConfigProperty")) {
                        member(annotation, "name")
                                .ifPresent(name -> keys.putIfAbsent(name, "@ConfigProperty in " + file));
                    }
                }
            }
            return keys;
        }

        private List<CompilationUnit> parseAll() {
            JavaParser parser = new JavaParser(
                    new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));
            List<CompilationUnit> units = new ArrayList<>();
            for (Path sources : sourceRoots) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file :
                            files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        ParseResult<CompilationUnit> result = parser.parse(file);
                        if (!result.isSuccessful() || result.getResult().isEmpty()) {
                            throw new IllegalStateException("cannot parse " + file + ": " + result.getProblems());
                        }
                        units.add(result.getResult().get());
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("cannot read " + sources, e);
                }
            }
            return units;
        }

        private void expand(String path, ClassOrInterfaceDeclaration type, String where, Set<String> visiting) {
            if (!visiting.add(type.getNameAsString())) {
                return;
            }
            for (MethodDeclaration method : type.getMethods()) {
                if (method.isDefault()
                        || method.isStatic()
                        || method.getBody().isPresent()
                        || !method.getParameters().isEmpty()) {
                    continue;
                }
                String segment = method.getAnnotationByName("WithParentName").isPresent()
                        ? ""
                        : method.getAnnotationByName("WithName")
                                .flatMap(annotation -> member(annotation, "value"))
                                .orElseGet(() -> kebab(method.getNameAsString()));
                String key = join(path, segment);
                Type valueType = method.getType();
                // Unwrap Optional<T>, List<T>, ...; Map<String, T> adds one free segment.
                while (valueType instanceof ClassOrInterfaceType generic
                        && generic.getTypeArguments().isPresent()) {
                    String name = generic.getNameAsString();
                    List<Type> arguments = generic.getTypeArguments().get();
                    if (name.equals("Map") && arguments.size() == 2) {
                        key = join(key, "*");
                        valueType = arguments.get(1);
                    } else if (CONTAINERS.contains(name) && arguments.size() == 1) {
                        valueType = arguments.get(0);
                    } else {
                        break;
                    }
                }
                String simpleName = valueType instanceof ClassOrInterfaceType named ? named.getNameAsString() : "";
                ClassOrInterfaceDeclaration nested = interfaces.get(simpleName);
                if (nested != null) {
                    expand(key, nested, where, visiting);
                } else {
                    keys.putIfAbsent(key, where);
                }
            }
            for (ClassOrInterfaceType parent : type.getExtendedTypes()) {
                ClassOrInterfaceDeclaration declaration = interfaces.get(parent.getNameAsString());
                if (declaration != null) {
                    expand(path, declaration, where, visiting);
                }
            }
            visiting.remove(type.getNameAsString());
        }

        private static String join(String path, String segment) {
            if (segment.isEmpty()) {
                return path;
            }
            return path.isEmpty() ? segment : path + "." + segment;
        }

        private static Optional<String> member(AnnotationExpr annotation, String name) {
            Expression value = null;
            if (annotation instanceof SingleMemberAnnotationExpr single && name.equals("value")) {
                value = single.getMemberValue();
            } else if (annotation instanceof NormalAnnotationExpr normal) {
                value = normal.getPairs().stream()
                        .filter(pair -> pair.getNameAsString().equals(name))
                        .map(pair -> pair.getValue())
                        .findFirst()
                        .orElse(null);
            }
            if (value != null && value.isStringLiteralExpr()) {
                return Optional.of(value.asStringLiteralExpr().asString());
            }
            return Optional.empty();
        }

        /** SmallRye's default naming: {@code stateServiceUrl} → {@code state-service-url}, {@code maxTTL} → {@code max-ttl}. */
        static String kebab(String name) {
            StringBuilder result = new StringBuilder();
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (Character.isUpperCase(c) && i > 0) {
                    boolean afterLower = !Character.isUpperCase(name.charAt(i - 1));
                    boolean beforeLower = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
                    if (afterLower || beforeLower) {
                        result.append('-');
                    }
                }
                result.append(Character.toLowerCase(c));
            }
            return result.toString();
        }
    }
}
