package io.routegateway.testsupport;

import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The pure choice between Testcontainers and the local servers for {@value #PROPERTY} ({@code
 * auto|testcontainers|local}). It depends on nothing but the JDK, so {@code deploy/local/dev.sh}
 * runs the same choice for Quarkus dev mode: {@code java InfraSelection.java <setting>
 * <docker-answers>} prints {@code CONTAINER} or {@code LOCAL}.
 */
public final class InfraSelection {

    public static final String PROPERTY = "route.test.infra";
    static final long DOCKER_PROBE_SECONDS = 5;

    private InfraSelection() {}

    /** The setting's values. */
    public enum Setting {
        AUTO,
        TESTCONTAINERS,
        LOCAL;

        /** Blank means {@link #AUTO}; any other value than the three names is refused, naming them. */
        public static Setting parse(String raw) {
            if (raw == null || raw.isBlank()) {
                return AUTO;
            }
            String value = raw.strip().toUpperCase(Locale.ROOT);
            for (Setting setting : values()) {
                if (setting.name().equals(value)) {
                    return setting;
                }
            }
            throw new IllegalArgumentException(
                    PROPERTY + " must be auto, testcontainers or local, not '" + printable(raw) + "'");
        }
    }

    /** Where one server comes from. */
    public enum Source {
        /** a Testcontainers container, one per JVM */
        CONTAINER,
        /** the local PostgreSQL server (deploy/local/postgres.sh) or a broker in a child JVM */
        LOCAL,
        /** the broker named by {@link KafkaBrokerResource#BOOTSTRAP_PROPERTY} (Kafka only) */
        GIVEN
    }

    /**
     * PostgreSQL's source. {@code dockerAnswers} is asked only under {@code auto} and {@code
     * testcontainers}; {@code testcontainers} without an answering engine is refused rather than
     * waited for.
     */
    public static Source choose(Setting setting, BooleanSupplier dockerAnswers) {
        return switch (setting) {
            case LOCAL -> Source.LOCAL;
            case AUTO -> dockerAnswers.getAsBoolean() ? Source.CONTAINER : Source.LOCAL;
            case TESTCONTAINERS -> {
                if (!dockerAnswers.getAsBoolean()) {
                    throw new IllegalStateException(PROPERTY + "=testcontainers, but no Docker engine answered within "
                            + DOCKER_PROBE_SECONDS + " s (use auto or local without Docker)");
                }
                yield Source.CONTAINER;
            }
        };
    }

    /**
     * Kafka's source: under {@code auto} and {@code local} a broker given from outside (the project's
     * test command starts one for every module) is used without asking Docker; {@code testcontainers}
     * always means a container.
     */
    public static Source chooseKafka(Setting setting, String givenBootstrap, BooleanSupplier dockerAnswers) {
        if (setting != Setting.TESTCONTAINERS && givenBootstrap != null) {
            return Source.GIVEN;
        }
        return choose(setting, dockerAnswers);
    }

    /** {@code <setting> <docker-answers: true|false>}: prints the source PostgreSQL and Kafka come from. */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: InfraSelection <auto|testcontainers|local> <true|false>");
            System.exit(2);
        }
        try {
            System.out.println(choose(Setting.parse(args[0]), () -> Boolean.parseBoolean(args[1])));
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    private static String printable(String raw) {
        String cut = raw.length() > 40 ? raw.substring(0, 40) + "…" : raw;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
