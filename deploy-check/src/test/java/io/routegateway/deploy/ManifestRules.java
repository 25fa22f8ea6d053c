package io.routegateway.deploy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBackend;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.Endpoint;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

/**
 * Rules every render of the chart must satisfy. Each rule returns its violations (empty means it holds), so a
 * test can show all of them at once and the negative tests can assert what a broken chart produces.
 */
final class ManifestRules {

    static final String COMPONENT_LABEL = "app.kubernetes.io/component";
    static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

    static final List<String> REQUIRED_LABELS = List.of(
            "helm.sh/chart",
            "app.kubernetes.io/name",
            INSTANCE_LABEL,
            "app.kubernetes.io/version",
            "app.kubernetes.io/managed-by",
            "app",
            "application",
            "system");

    static final String STARTED_PATH = "/q/health/started";
    static final String LIVE_PATH = "/q/health/live";
    static final String READY_PATH = "/q/health/ready";
    static final String METRICS_PATH = "/q/metrics";

    /** Container and Service port of the Quarkus management interface (health and metrics). */
    static final String MANAGEMENT_PORT = "management";

    static final String GATEWAY = "gateway-service";
    static final String RECOVERY = "recovery-service";
    static final String STATE = "state-service";
    static final String INTERNAL_TOKEN_ENV = "ROUTE_INTERNAL_TOKEN";
    static final String SIGNING_KEY_ENV = "ROUTE_STATE_SIGNING_PRIVATE_KEY";
    static final String PRODUCER_KEY_ENV = "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY";

    /** Names that must never carry a literal value. */
    static final Pattern SENSITIVE_NAME =
            Pattern.compile("(?i).*(PASSWORD|PASSWD|SECRET|TOKEN|JAAS|CREDENTIAL|PRIVATE|API_KEY|ENCRYPTION_KEY).*");

    /**
     * Names that match {@link #SENSITIVE_NAME} but are boolean switches, not secrets; accepted in plain text only
     * with the value true or false.
     */
    static final Set<String> SECRET_SWITCHES = Set.of("ROUTE_SECRET_ACCEPT_V1");

    /** A Kubernetes dependent-variable reference, $(NAME), expanded by the kubelet from earlier variables. */
    static final Pattern VARIABLE_REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    /** A password="..." field of a JAAS line. */
    static final Pattern JAAS_PASSWORD = Pattern.compile("password=\"([^\"]*)\"");

    /** user:password@ in a URL. */
    static final Pattern URL_CREDENTIALS = Pattern.compile("://[^/@\\s]+:[^/@\\s]+@");

    private final List<HasMetadata> resources;

    ManifestRules(List<StrictManifestReader.Manifest> manifests) {
        this.resources =
                manifests.stream().map(StrictManifestReader.Manifest::resource).toList();
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** Rendered kinds and how many of each, in render order. */
    Map<String, Integer> kindCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        resources.forEach(resource -> counts.merge(resource.getKind(), 1, Integer::sum));
        return counts;
    }

    /** Every resource and every pod template carries the standard labels plus app, application and system. */
    List<String> labels() {
        List<String> violations = new ArrayList<>();
        for (HasMetadata resource : resources) {
            checkLabels(describe(resource), resource.getMetadata().getLabels(), violations);
        }
        for (Deployment deployment : all(Deployment.class)) {
            checkLabels(
                    describe(deployment) + " pod template",
                    deployment.getSpec().getTemplate().getMetadata().getLabels(),
                    violations);
        }
        return violations;
    }

    private static void checkLabels(String where, Map<String, String> labels, List<String> violations) {
        for (String label : REQUIRED_LABELS) {
            if (labels == null || labels.get(label) == null || labels.get(label).isBlank()) {
                violations.add(where + ": label " + label + " is missing");
            }
        }
    }

    /** Selectors select what they are meant to, and named or numbered ports resolve. */
    List<String> selectors() {
        List<String> violations = new ArrayList<>();
        List<Deployment> deployments = all(Deployment.class);
        Map<String, Integer> perComponent = new LinkedHashMap<>();
        for (Deployment deployment : deployments) {
            Map<String, String> selector =
                    matchLabels(deployment.getSpec().getSelector(), describe(deployment), violations);
            if (!matches(selector, podLabels(deployment))) {
                violations.add(describe(deployment) + ": selector " + selector
                        + " does not match its pod template labels " + podLabels(deployment));
            }
            perComponent.merge(String.valueOf(podLabels(deployment).get(COMPONENT_LABEL)), 1, Integer::sum);
        }
        perComponent.forEach((component, count) -> {
            if (count != 1) {
                violations.add(count + " Deployments carry " + COMPONENT_LABEL + "=" + component);
            }
        });
        for (Service service : all(Service.class)) {
            List<Deployment> selected = selectedBy(service.getSpec().getSelector(), deployments);
            if (selected.size() != 1) {
                violations.add(
                        describe(service) + ": selector " + service.getSpec().getSelector() + " selects "
                                + selected.size() + " Deployments, expected exactly 1");
                continue;
            }
            for (ServicePort port : service.getSpec().getPorts()) {
                if (resolvePort(port.getTargetPort(), selected.get(0)).isEmpty()) {
                    violations.add(describe(service) + ": targetPort " + port.getTargetPort()
                            + " is no container port of " + describe(selected.get(0)));
                }
            }
        }
        for (PodDisruptionBudget pdb : all(PodDisruptionBudget.class)) {
            Map<String, String> selector = matchLabels(pdb.getSpec().getSelector(), describe(pdb), violations);
            int selected = selectedBy(selector, deployments).size();
            if (selected != 1) {
                violations.add(describe(pdb) + ": selector selects " + selected + " Deployments, expected exactly 1");
            }
        }
        for (NetworkPolicy policy : all(NetworkPolicy.class)) {
            Map<String, String> selector = matchLabels(policy.getSpec().getPodSelector(), describe(policy), violations);
            List<Deployment> selected = selectedBy(selector, deployments);
            if (selected.isEmpty()) {
                violations.add(describe(policy) + ": podSelector selects no Deployment");
            }
            for (var rule : policy.getSpec().getIngress()) {
                checkPeers(describe(policy) + " ingress", rule.getFrom(), deployments, violations);
                checkPolicyPorts(describe(policy) + " ingress", rule.getPorts(), selected, violations);
            }
            for (var rule : policy.getSpec().getEgress()) {
                List<Deployment> targets =
                        checkPeers(describe(policy) + " egress", rule.getTo(), deployments, violations);
                checkPolicyPorts(describe(policy) + " egress", rule.getPorts(), targets, violations);
            }
        }
        for (HorizontalPodAutoscaler hpa : all(HorizontalPodAutoscaler.class)) {
            var target = hpa.getSpec().getScaleTargetRef();
            Optional<Deployment> scaled = deployments.stream()
                    .filter(d -> "Deployment".equals(target.getKind())
                            && d.getMetadata().getName().equals(target.getName()))
                    .findFirst();
            if (scaled.isEmpty()) {
                violations.add(describe(hpa) + ": scaleTargetRef " + target.getKind() + "/" + target.getName()
                        + " is not rendered");
            } else if (scaled.get().getSpec().getReplicas() != null) {
                violations.add(describe(scaled.get()) + ": sets spec.replicas although " + describe(hpa)
                        + " scales it (every upgrade would reset the replica count)");
            }
        }
        List<Service> services = all(Service.class);
        for (ServiceMonitor monitor : all(ServiceMonitor.class)) {
            Map<String, String> selector = matchLabels(monitor.getSpec().getSelector(), describe(monitor), violations);
            List<Service> selected = services.stream()
                    .filter(s -> matches(selector, s.getMetadata().getLabels()))
                    .toList();
            if (selected.isEmpty()) {
                violations.add(describe(monitor) + ": selector selects no Service");
            }
            for (Endpoint endpoint : monitor.getSpec().getEndpoints()) {
                for (Service service : selected) {
                    boolean named = service.getSpec().getPorts().stream()
                            .anyMatch(p -> Objects.equals(p.getName(), endpoint.getPort()));
                    if (!named) {
                        violations.add(describe(monitor) + ": endpoint port " + endpoint.getPort()
                                + " is not a port of " + describe(service));
                    }
                }
                if (!METRICS_PATH.equals(endpoint.getPath())) {
                    violations.add(
                            describe(monitor) + ": scrapes " + endpoint.getPath() + ", Quarkus serves /q/metrics");
                }
                if (!MANAGEMENT_PORT.equals(endpoint.getPort())) {
                    violations.add(describe(monitor) + ": scrapes port " + endpoint.getPort()
                            + ", metrics are served on the management port");
                }
            }
        }
        for (Ingress ingress : all(Ingress.class)) {
            Stream<IngressBackend> backends = ingress.getSpec().getRules().stream()
                    .filter(rule -> rule.getHttp() != null)
                    .flatMap(rule -> rule.getHttp().getPaths().stream())
                    .map(path -> path.getBackend());
            backends.forEach(backend -> {
                var ref = backend.getService();
                Optional<Service> service = services.stream()
                        .filter(s -> ref != null && s.getMetadata().getName().equals(ref.getName()))
                        .findFirst();
                if (service.isEmpty()) {
                    violations.add(describe(ingress) + ": backend " + (ref == null ? "null" : ref.getName())
                            + " is not a rendered Service");
                } else if (service.get().getSpec().getPorts().stream()
                        .noneMatch(p -> Objects.equals(
                                        p.getName(), ref.getPort().getName())
                                || Objects.equals(p.getPort(), ref.getPort().getNumber()))) {
                    violations.add(describe(ingress) + ": backend port " + ref.getPort() + " is not a port of "
                            + describe(service.get()));
                }
            });
        }
        return violations;
    }

    private List<Deployment> checkPeers(
            String where, List<NetworkPolicyPeer> peers, List<Deployment> deployments, List<String> violations) {
        List<Deployment> targets = new ArrayList<>();
        for (NetworkPolicyPeer peer : peers) {
            // A podSelector without namespaceSelector that names this release must find pods of this release.
            if (peer.getPodSelector() != null && peer.getNamespaceSelector() == null) {
                Map<String, String> selector = matchLabels(peer.getPodSelector(), where, violations);
                if (selector.containsKey(INSTANCE_LABEL)) {
                    List<Deployment> selected = selectedBy(selector, deployments);
                    if (selected.isEmpty()) {
                        violations.add(where + ": peer podSelector " + selector + " selects no Deployment");
                    }
                    targets.addAll(selected);
                }
            }
        }
        return targets;
    }

    private static void checkPolicyPorts(
            String where, List<NetworkPolicyPort> ports, List<Deployment> pods, List<String> violations) {
        for (NetworkPolicyPort port : ports) {
            for (Deployment deployment : pods) {
                if (resolvePort(port.getPort(), deployment).isEmpty()) {
                    violations.add(
                            where + ": port " + port.getPort() + " is no container port of " + describe(deployment));
                }
            }
        }
    }

    /** Startup, liveness and readiness probes use the Quarkus health endpoints on the management port. */
    List<String> probes() {
        List<String> violations = new ArrayList<>();
        for (Deployment deployment : all(Deployment.class)) {
            for (Container container : containers(deployment)) {
                String where = describe(deployment) + " container " + container.getName();
                checkProbe(where, "startupProbe", container.getStartupProbe(), STARTED_PATH, deployment, violations);
                checkProbe(where, "livenessProbe", container.getLivenessProbe(), LIVE_PATH, deployment, violations);
                checkProbe(where, "readinessProbe", container.getReadinessProbe(), READY_PATH, deployment, violations);
            }
        }
        return violations;
    }

    private static void checkProbe(
            String where, String kind, Probe probe, String path, Deployment deployment, List<String> violations) {
        HTTPGetAction get = probe == null ? null : probe.getHttpGet();
        if (get == null) {
            violations.add(where + ": " + kind + " must be an httpGet probe on " + path);
            return;
        }
        if (!path.equals(get.getPath())) {
            violations.add(where + ": " + kind + " path is " + get.getPath() + ", expected " + path);
        }
        OptionalInt port = resolvePort(get.getPort(), deployment);
        OptionalInt management = managementPort(deployment);
        if (port.isEmpty() || management.isEmpty() || port.getAsInt() != management.getAsInt()) {
            violations.add(where + ": " + kind + " port " + get.getPort() + " is not the container's management port");
        }
    }

    /** The container's http port equals quarkus.http.port of the service's application.properties. */
    List<String> ports(Map<String, ServiceConfigKeys> services) {
        List<String> violations = new ArrayList<>();
        for (Deployment deployment : all(Deployment.class)) {
            Optional<ServiceConfigKeys> service = serviceOf(deployment, services, violations);
            if (service.isEmpty()) {
                continue;
            }
            OptionalInt expected = service.get().httpPort();
            OptionalInt actual = httpPort(deployment);
            if (expected.isEmpty()) {
                violations.add(service.get().service()
                        + "/src/main/resources/application.properties sets no quarkus.http.port; "
                        + describe(deployment)
                        + " cannot be checked");
            } else if (actual.isEmpty()) {
                violations.add(describe(deployment) + ": no container port named http");
            } else if (actual.getAsInt() != expected.getAsInt()) {
                violations.add(describe(deployment) + ": container port " + actual.getAsInt() + " but "
                        + service.get().service() + " listens on quarkus.http.port=" + expected.getAsInt());
            }
            String configured = environment(deployment).get("QUARKUS_HTTP_PORT");
            if (configured != null && expected.isPresent() && !configured.equals(String.valueOf(expected.getAsInt()))) {
                violations.add(describe(deployment) + ": QUARKUS_HTTP_PORT=" + configured + " but "
                        + service.get().service() + " listens on " + expected.getAsInt());
            }
            OptionalInt expectedManagement = service.get().managementPort();
            OptionalInt actualManagement = managementPort(deployment);
            if (expectedManagement.isEmpty()) {
                violations.add(service.get().service()
                        + "/src/main/resources/application.properties sets no quarkus.management.port");
            } else if (actualManagement.isEmpty()) {
                violations.add(describe(deployment) + ": no container port named " + MANAGEMENT_PORT);
            } else if (actualManagement.getAsInt() != expectedManagement.getAsInt()) {
                violations.add(describe(deployment) + ": management port " + actualManagement.getAsInt() + " but "
                        + service.get().service() + " serves health and metrics on quarkus.management.port="
                        + expectedManagement.getAsInt());
            }
            String configuredManagement = environment(deployment).get("QUARKUS_MANAGEMENT_PORT");
            if (configuredManagement != null
                    && expectedManagement.isPresent()
                    && !configuredManagement.equals(String.valueOf(expectedManagement.getAsInt()))) {
                violations.add(describe(deployment) + ": QUARKUS_MANAGEMENT_PORT=" + configuredManagement + " but "
                        + service.get().service() + " serves management on " + expectedManagement.getAsInt());
            }
        }
        return violations;
    }

    /**
     * The internal API and the management ports are closed to everyone who does not need them: every ingress rule
     * of recovery-service's API port admits state-service pods only (no rule without peers, no other peer), a rule
     * that admits a management port admits no other port, {@value #INTERNAL_TOKEN_ENV} is given to
     * state-service and recovery-service only, from a secretKeyRef, {@value #SIGNING_KEY_ENV} to state-service
     * only, and {@value #PRODUCER_KEY_ENV} to the gateway and recovery-service only, each from a Secret of its own
     * (state-service holds only the producers' public keys).
     */
    List<String> internalAccess() {
        List<String> violations = new ArrayList<>();
        List<Deployment> deployments = all(Deployment.class);
        Optional<Deployment> recovery = deploymentOf(RECOVERY, deployments);
        Optional<Deployment> state = deploymentOf(STATE, deployments);
        if (recovery.isEmpty() || state.isEmpty()) {
            violations.add("no " + RECOVERY + " or " + STATE + " Deployment rendered");
            return violations;
        }
        OptionalInt recoveryApi = httpPort(recovery.get());
        for (NetworkPolicy policy : all(NetworkPolicy.class)) {
            Map<String, String> selector = policy.getSpec().getPodSelector() == null
                    ? Map.of()
                    : policy.getSpec().getPodSelector().getMatchLabels();
            List<Deployment> selected = selectedBy(selector, deployments);
            for (var rule : policy.getSpec().getIngress()) {
                for (Deployment deployment : selected) {
                    List<Integer> ports = rule.getPorts().stream()
                            .map(port -> resolvePort(port.getPort(), deployment))
                            .filter(OptionalInt::isPresent)
                            .map(OptionalInt::getAsInt)
                            .toList();
                    OptionalInt management = managementPort(deployment);
                    if (management.isPresent() && ports.contains(management.getAsInt()) && ports.size() > 1) {
                        violations.add(describe(policy) + ": a rule admits the management port together with " + ports
                                + " of " + describe(deployment));
                    }
                    boolean recoveryApiRule = deployment == recovery.get()
                            && (rule.getPorts().isEmpty()
                                    || recoveryApi.isPresent() && ports.contains(recoveryApi.getAsInt()));
                    if (!recoveryApiRule) {
                        continue;
                    }
                    if (rule.getFrom().isEmpty()) {
                        violations.add(describe(policy) + ": recovery-service's API port is open to any peer");
                    }
                    for (NetworkPolicyPeer peer : rule.getFrom()) {
                        boolean onlyState = peer.getNamespaceSelector() == null
                                && peer.getIpBlock() == null
                                && peer.getPodSelector() != null
                                && selectedBy(peer.getPodSelector().getMatchLabels(), deployments)
                                        .equals(List.of(state.get()))
                                && peer.getPodSelector().getMatchExpressions().isEmpty();
                        if (!onlyState) {
                            violations.add(describe(policy) + ": recovery-service's API port admits " + peer
                                    + ", expected state-service pods only");
                        }
                    }
                }
            }
        }
        for (Deployment deployment : deployments) {
            String component = podLabels(deployment).get(COMPONENT_LABEL);
            boolean needsToken = RECOVERY.equals(component) || STATE.equals(component);
            Optional<EnvVar> token = containers(deployment).stream()
                    .flatMap(container -> container.getEnv().stream())
                    .filter(env -> INTERNAL_TOKEN_ENV.equals(env.getName()))
                    .findFirst();
            if (needsToken && token.isEmpty()) {
                violations.add(describe(deployment) + ": " + INTERNAL_TOKEN_ENV + " is missing");
            }
            if (!needsToken && token.isPresent()) {
                violations.add(describe(deployment) + ": gets " + INTERNAL_TOKEN_ENV + " but does not use it");
            }
            // The key that signs the state topics: whoever holds it can change routing.
            boolean signs = STATE.equals(component);
            boolean hasSigningKey = containers(deployment).stream()
                    .flatMap(container -> container.getEnv().stream())
                    .anyMatch(env -> SIGNING_KEY_ENV.equals(env.getName()));
            if (signs && !hasSigningKey) {
                violations.add(describe(deployment) + ": " + SIGNING_KEY_ENV + " is missing");
            }
            if (!signs && hasSigningKey) {
                violations.add(describe(deployment) + ": gets " + SIGNING_KEY_ENV + "; only state-service signs");
            }
        }
        // Each producer's own key that signs what it sends state-service: never state-service's, never shared.
        Map<String, String> producerSecrets = new LinkedHashMap<>();
        for (Deployment deployment : deployments) {
            String component = podLabels(deployment).get(COMPONENT_LABEL);
            boolean produces = GATEWAY.equals(component) || RECOVERY.equals(component);
            Optional<EnvVar> producerKey = containers(deployment).stream()
                    .flatMap(container -> container.getEnv().stream())
                    .filter(env -> PRODUCER_KEY_ENV.equals(env.getName()))
                    .findFirst();
            if (produces && producerKey.isEmpty()) {
                violations.add(describe(deployment) + ": " + PRODUCER_KEY_ENV + " is missing");
            }
            if (!produces && producerKey.isPresent()) {
                violations.add(describe(deployment) + ": gets " + PRODUCER_KEY_ENV
                        + "; only the gateway and recovery-service sign what they send");
            }
            if (produces && producerKey.isPresent()) {
                EnvVar env = producerKey.get();
                if (env.getValueFrom() == null || env.getValueFrom().getSecretKeyRef() == null) {
                    violations.add(describe(deployment) + ": " + PRODUCER_KEY_ENV + " is not from a secretKeyRef");
                } else {
                    String secret = env.getValueFrom().getSecretKeyRef().getName();
                    String other = producerSecrets.put(secret, component);
                    if (other != null && !other.equals(component)) {
                        violations.add(describe(deployment) + ": " + PRODUCER_KEY_ENV + " comes from Secret " + secret
                                + ", which also holds " + other + "'s key; each producer signs with its own");
                    }
                }
            }
        }
        return violations;
    }

    private static Optional<Deployment> deploymentOf(String component, List<Deployment> deployments) {
        return deployments.stream()
                .filter(d -> component.equals(podLabels(d).get(COMPONENT_LABEL)))
                .findFirst();
    }

    /** Every variable set on a container (directly or through a ConfigMap) maps to a config key of its service. */
    List<String> environment(Map<String, ServiceConfigKeys> services) {
        List<String> violations = new ArrayList<>();
        for (Deployment deployment : all(Deployment.class)) {
            Optional<ServiceConfigKeys> service = serviceOf(deployment, services, violations);
            if (service.isEmpty()) {
                continue;
            }
            for (Container container : containers(deployment)) {
                for (EnvFromSource source : container.getEnvFrom()) {
                    if (source.getSecretRef() != null) {
                        violations.add(describe(deployment) + ": envFrom secretRef "
                                + source.getSecretRef().getName()
                                + " hides which variables are set; use env with secretKeyRef");
                    }
                    if (source.getConfigMapRef() != null
                            && configMap(source.getConfigMapRef().getName()).isEmpty()) {
                        violations.add(describe(deployment) + ": envFrom ConfigMap "
                                + source.getConfigMapRef().getName() + " is not rendered");
                    }
                    if (source.getPrefix() != null && !source.getPrefix().isEmpty()) {
                        violations.add(describe(deployment) + ": envFrom prefix is not supported by this check");
                    }
                }
            }
            Set<String> referenced = referencedVariables(deployment);
            for (String name : environment(deployment).keySet()) {
                // A variable only referenced as $(NAME) by another one feeds that value (e.g. a password spliced
                // into a JAAS line); it is no config key of its own.
                if (service.get().keyFor(name).isEmpty() && !referenced.contains(name)) {
                    violations.add(describe(deployment) + ": " + service.get().explainMissing(name));
                }
            }
        }
        return violations;
    }

    /** No Secret is rendered and no secret-looking value is written in plain text. */
    List<String> secrets() {
        List<String> violations = new ArrayList<>();
        for (Secret secret : all(Secret.class)) {
            violations.add(describe(secret) + ": the chart must not render Secrets; reference existing ones");
        }
        for (ConfigMap configMap : all(ConfigMap.class)) {
            if (configMap.getData() == null) {
                continue;
            }
            configMap.getData().forEach((key, value) -> {
                if (sensitive(key, value)) {
                    violations.add(describe(configMap) + ": sensitive key " + key + " in a ConfigMap");
                }
                if (value != null && URL_CREDENTIALS.matcher(value).find()) {
                    violations.add(describe(configMap) + ": " + key + " embeds credentials in a URL");
                }
            });
        }
        for (Deployment deployment : all(Deployment.class)) {
            for (Container container : containers(deployment)) {
                Set<String> secretVariables = container.getEnv().stream()
                        .filter(ManifestRules::fromSecret)
                        .map(EnvVar::getName)
                        .collect(Collectors.toSet());
                for (EnvVar env : container.getEnv()) {
                    if (sensitive(env.getName(), env.getValue())
                            && !fromSecret(env)
                            && !secretOnlyThroughReferences(env.getValue(), secretVariables)) {
                        violations.add(describe(deployment) + ": " + env.getName()
                                + " must come from a secretKeyRef, not a literal value");
                    }
                    if (env.getValue() != null
                            && URL_CREDENTIALS.matcher(env.getValue()).find()) {
                        violations.add(describe(deployment) + ": " + env.getName() + " embeds credentials in a URL");
                    }
                }
            }
        }
        return violations;
    }

    static boolean sensitive(String name, String value) {
        boolean aSwitch = SECRET_SWITCHES.contains(name) && ("true".equals(value) || "false".equals(value));
        return SENSITIVE_NAME.matcher(name).matches() && !aSwitch;
    }

    private static boolean fromSecret(EnvVar env) {
        return env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null;
    }

    /**
     * A literal JAAS line is acceptable only when each of its passwords is exactly a $(NAME) reference to a
     * variable of the same container that comes from a secretKeyRef: the kubelet splices the secret in, the pod
     * spec never holds it.
     */
    static boolean secretOnlyThroughReferences(String value, Set<String> secretVariables) {
        if (value == null) {
            return false;
        }
        Matcher passwords = JAAS_PASSWORD.matcher(value);
        boolean any = false;
        while (passwords.find()) {
            any = true;
            Matcher reference = VARIABLE_REFERENCE.matcher(passwords.group(1));
            if (!reference.matches() || !secretVariables.contains(reference.group(1))) {
                return false;
            }
        }
        return any;
    }

    /** Names referenced as $(NAME) by the literal values of a Deployment's containers. */
    private static Set<String> referencedVariables(Deployment deployment) {
        Set<String> names = new HashSet<>();
        for (Container container : containers(deployment)) {
            for (EnvVar env : container.getEnv()) {
                if (env.getValue() != null) {
                    Matcher reference = VARIABLE_REFERENCE.matcher(env.getValue());
                    while (reference.find()) {
                        names.add(reference.group(1));
                    }
                }
            }
        }
        return names;
    }

    /** Non-root, read-only root filesystem with /tmp on an emptyDir, no capabilities, RuntimeDefault seccomp. */
    List<String> hardening() {
        List<String> violations = new ArrayList<>();
        for (Deployment deployment : all(Deployment.class)) {
            PodSpec pod = deployment.getSpec().getTemplate().getSpec();
            PodSecurityContext podSecurity = pod.getSecurityContext();
            String where = describe(deployment);
            if (!Boolean.FALSE.equals(pod.getAutomountServiceAccountToken())) {
                violations.add(where + ": automountServiceAccountToken must be false (no Kubernetes API access)");
            }
            for (Container container : pod.getContainers()) {
                String c = where + " container " + container.getName();
                SecurityContext security = container.getSecurityContext();
                if (security == null) {
                    violations.add(c + ": no securityContext");
                    continue;
                }
                boolean nonRoot = Boolean.TRUE.equals(security.getRunAsNonRoot())
                        || (security.getRunAsNonRoot() == null
                                && podSecurity != null
                                && Boolean.TRUE.equals(podSecurity.getRunAsNonRoot()));
                if (!nonRoot) {
                    violations.add(c + ": runAsNonRoot must be true");
                }
                if (!Boolean.TRUE.equals(security.getReadOnlyRootFilesystem())) {
                    violations.add(c + ": readOnlyRootFilesystem must be true");
                }
                if (!Boolean.FALSE.equals(security.getAllowPrivilegeEscalation())) {
                    violations.add(c + ": allowPrivilegeEscalation must be false");
                }
                if (security.getCapabilities() == null
                        || !security.getCapabilities().getDrop().contains("ALL")) {
                    violations.add(c + ": capabilities must drop ALL");
                }
                if (security.getCapabilities() != null
                        && !security.getCapabilities().getAdd().isEmpty()) {
                    violations.add(c + ": adds capabilities "
                            + security.getCapabilities().getAdd());
                }
                String seccomp = security.getSeccompProfile() != null
                        ? security.getSeccompProfile().getType()
                        : podSecurity != null && podSecurity.getSeccompProfile() != null
                                ? podSecurity.getSeccompProfile().getType()
                                : null;
                if (!"RuntimeDefault".equals(seccomp)) {
                    violations.add(c + ": seccompProfile must be RuntimeDefault");
                }
                Optional<VolumeMount> tmp = container.getVolumeMounts().stream()
                        .filter(m -> "/tmp".equals(m.getMountPath()))
                        .findFirst();
                Optional<Volume> tmpVolume = tmp.flatMap(m -> pod.getVolumes().stream()
                        .filter(v -> v.getName().equals(m.getName()))
                        .findFirst());
                if (tmpVolume.isEmpty() || tmpVolume.get().getEmptyDir() == null) {
                    violations.add(c + ": /tmp must be an emptyDir (the root filesystem is read-only)");
                }
                var resources = container.getResources();
                if (resources == null
                        || resources.getRequests().get("cpu") == null
                        || resources.getRequests().get("memory") == null
                        || resources.getLimits().get("memory") == null) {
                    violations.add(c + ": needs cpu and memory requests and a memory limit");
                }
                if (container.getImage() == null || container.getImage().endsWith(":latest")) {
                    violations.add(c + ": image must be pinned to a tag or digest, not latest");
                }
            }
        }
        return violations;
    }

    /** All rules at once. */
    List<String> all(Map<String, ServiceConfigKeys> services) {
        List<String> violations = new ArrayList<>();
        violations.addAll(labels());
        violations.addAll(selectors());
        violations.addAll(probes());
        violations.addAll(ports(services));
        violations.addAll(environment(services));
        violations.addAll(secrets());
        violations.addAll(hardening());
        violations.addAll(internalAccess());
        return violations;
    }

    /** Name → value (or "secretKeyRef …") of every variable a Deployment's containers get, ConfigMaps expanded. */
    Map<String, String> environment(Deployment deployment) {
        Map<String, String> variables = new LinkedHashMap<>();
        for (Container container : containers(deployment)) {
            for (EnvFromSource source : container.getEnvFrom()) {
                if (source.getConfigMapRef() != null) {
                    configMap(source.getConfigMapRef().getName())
                            .map(ConfigMap::getData)
                            .ifPresent(variables::putAll);
                }
            }
            for (EnvVar env : container.getEnv()) {
                String value = env.getValue();
                if (value == null
                        && env.getValueFrom() != null
                        && env.getValueFrom().getSecretKeyRef() != null) {
                    value = "secretKeyRef "
                            + env.getValueFrom().getSecretKeyRef().getName() + "/"
                            + env.getValueFrom().getSecretKeyRef().getKey();
                }
                variables.put(env.getName(), value);
            }
        }
        return variables;
    }

    private Optional<ConfigMap> configMap(String name) {
        return all(ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().equals(name))
                .findFirst();
    }

    private static Optional<ServiceConfigKeys> serviceOf(
            Deployment deployment, Map<String, ServiceConfigKeys> services, List<String> violations) {
        String component = podLabels(deployment).get(COMPONENT_LABEL);
        ServiceConfigKeys service = services.get(component);
        if (service == null) {
            violations.add(describe(deployment) + ": " + COMPONENT_LABEL + "=" + component
                    + " names none of the services " + services.keySet());
        }
        return Optional.ofNullable(service);
    }

    private static List<Container> containers(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers();
    }

    private static Map<String, String> podLabels(Deployment deployment) {
        Map<String, String> labels =
                deployment.getSpec().getTemplate().getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static OptionalInt httpPort(Deployment deployment) {
        return resolvePort(new IntOrString("http"), deployment);
    }

    private static OptionalInt managementPort(Deployment deployment) {
        return resolvePort(new IntOrString(MANAGEMENT_PORT), deployment);
    }

    /** A named or numbered port of the Deployment's containers. */
    private static OptionalInt resolvePort(IntOrString port, Deployment deployment) {
        if (port == null) {
            return OptionalInt.empty();
        }
        for (Container container : containers(deployment)) {
            for (ContainerPort containerPort : container.getPorts()) {
                boolean named = port.getStrVal() != null && port.getStrVal().equals(containerPort.getName());
                boolean numbered =
                        port.getIntVal() != null && port.getIntVal().equals(containerPort.getContainerPort());
                if (named || numbered) {
                    return OptionalInt.of(containerPort.getContainerPort());
                }
            }
        }
        return OptionalInt.empty();
    }

    private static Map<String, String> matchLabels(LabelSelector selector, String where, List<String> violations) {
        if (selector == null) {
            violations.add(where + ": selector is missing");
            return Map.of();
        }
        if (!selector.getMatchExpressions().isEmpty()) {
            violations.add(where + ": matchExpressions are not used by this chart");
        }
        return selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    }

    private static List<Deployment> selectedBy(Map<String, String> selector, List<Deployment> deployments) {
        return deployments.stream().filter(d -> matches(selector, podLabels(d))).toList();
    }

    /** An empty selector would select everything: treated as matching nothing. */
    static boolean matches(Map<String, String> selector, Map<String, String> labels) {
        return selector != null
                && !selector.isEmpty()
                && labels != null
                && selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    static String describe(HasMetadata resource) {
        return resource.getKind() + "/" + resource.getMetadata().getName();
    }
}
