package io.routegateway.core.hostpolicy;

import java.net.InetAddress;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class HostPolicyTests {

    private static final HostPolicy POLICY = HostPolicy.DEFAULT;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://169.254.169.254/latest",
                "https://169.254.169.254",
                "http://2852039166/",
                "http://0xa9fea9fe/",
                "http://0XA9FEA9FE/",
                "http://0251.0376.0251.0376/",
                "http://0xa9.0xfe.0xa9.0xfe/",
                "http://169.254.43518/",
                "http://169.16689662/",
                "http://0251.254.169.254/",
                "http://[::ffff:169.254.169.254]/",
                "http://[::ffff:a9fe:a9fe]/",
                "http://[::169.254.169.254]/",
                "http://[64:ff9b::a9fe:a9fe]/",
                "http://[2002:a9fe:a9fe::1]/",
                "http://[fe80::1]/",
                "http://[fe80::1%25eth0]/",
                "https://169.254.170.2:443/v2/credentials",
                "http://169.254.169.254.:80/",
            })
    void linkLocalAddressesAreRefusedInEverySpelling(String url) {
        assertThat(POLICY.check(url)).isEqualTo(HostPolicy.Reason.LINK_LOCAL);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://metadata.google.internal/computeMetadata/v1",
                "https://METADATA.GOOGLE.INTERNAL./",
                "http://metadata/",
                "http://metadata.azure.com/",
                "http://instance-data/",
                "http://[fd00:ec2::254]/",
                "http://100.100.100.200/",
            })
    void metadataServicesAreRefusedByNameAndAddress(String url) {
        assertThat(POLICY.check(url)).isEqualTo(HostPolicy.Reason.METADATA);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:8081/admin",
                "http://localhost:8082/",
                "http://state-service:8081/",
                "http://state-service.route.svc.cluster.local:9081/",
                "http://10.0.0.5:9080/",
                "http://[::1]:8080/",
                "http://2130706433:8081/",
                "http://0:8081/",
            })
    void theDeploymentsOwnServicePortsAreRefused(String url) {
        assertThat(POLICY.check(url)).isEqualTo(HostPolicy.Reason.OWN_PORT);
    }

    @Test
    void cleartextToAPublicHostIsRefusedUnlessAllowed() {
        assertThat(POLICY.check("http://api.openai.com/v1")).isEqualTo(HostPolicy.Reason.CLEARTEXT);
        assertThat(POLICY.check("http://8.8.8.8/")).isEqualTo(HostPolicy.Reason.CLEARTEXT);
        assertThat(POLICY.check("http://134744072/")).isEqualTo(HostPolicy.Reason.CLEARTEXT);
        assertThat(new HostPolicy(Set.of(), Set.of(), Set.of("relay.example.com"), false)
                        .check("http://relay.example.com/"))
                .isNull();
        assertThat(new HostPolicy(Set.of(), Set.of(), Set.of(), true).check("http://api.openai.com/"))
                .isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://api.openai.com/v1",
                "https://api.anthropic.com",
                "https://relay.example.com:8081/v1",
                "http://127.0.0.1:41234/mock",
                "http://localhost:11434/",
                "http://relay.internal/",
                "http://192.168.1.10:4000/",
                "https://[2606:4700::1111]/",
                "https://169.255.1.1/",
            })
    void ordinaryUpstreamsArePassed(String url) {
        assertThat(POLICY.check(url)).isNull();
    }

    @Test
    void anExplicitlyAllowedHostIsNeverRefused() {
        HostPolicy allowing =
                new HostPolicy(HostPolicy.DEFAULT_PORTS, Set.of("METADATA.google.internal"), Set.of(), false);
        assertThat(allowing.check("http://metadata.google.internal/")).isNull();
    }

    @Test
    void theResolvedAddressIsCheckedAgainAtConnectTime() throws Exception {
        // a public name that now resolves to the metadata address (DNS rebinding)
        assertThat(POLICY.checkResolved("rebind.example.com", InetAddress.getByName("169.254.169.254"), false, 443))
                .isEqualTo(HostPolicy.Reason.LINK_LOCAL);
        assertThat(POLICY.checkResolved("rebind.example.com", InetAddress.getByName("127.0.0.1"), false, 8081))
                .isEqualTo(HostPolicy.Reason.OWN_PORT);
        assertThat(POLICY.checkResolved("api.example.com", InetAddress.getByName("8.8.8.8"), true, 80))
                .isEqualTo(HostPolicy.Reason.CLEARTEXT);
        assertThat(POLICY.checkResolved("api.example.com", InetAddress.getByName("8.8.8.8"), false, 443))
                .isNull();
    }

    @Test
    void urlsThatAreNotHttpAreLeftToTheFormatCheck() {
        assertThat(POLICY.check("ftp://169.254.169.254/")).isNull();
        assertThat(POLICY.check("not a url")).isNull();
        assertThat(POLICY.check(null)).isNull();
    }

    @Test
    void theRefusalNamesTheReasonNeverTheUrl() {
        assertThat(HostPolicy.Reason.LINK_LOCAL.message())
                .contains("link_local")
                .doesNotContain("169");
    }
}
