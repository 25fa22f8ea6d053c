{{/*
Configuration of each service as environment variables (MicroProfile Config env mapping: a key's dots and
dashes become underscores, upper case; KAFKA_BOOTSTRAP_SERVERS <-> kafka.bootstrap.servers).
Non-secret values go into the component's ConfigMap (route-gateway.configData); secrets are only ever
secretKeyRef entries pointing at existing Secrets (route-gateway.secretEnv). deploy-check verifies that every
name maps to a config key the service really has.
*/}}

{{- define "route-gateway.configData" -}}
{{- $root := .root }}
{{- $v := $root.Values }}
{{- $c := fromYaml (include "route-gateway.component" .) -}}
QUARKUS_HTTP_PORT: {{ $c.port | quote }}
QUARKUS_MANAGEMENT_PORT: {{ $c.managementPort | quote }}
QUARKUS_LOG_LEVEL: {{ $v.logLevel | quote }}
KAFKA_BOOTSTRAP_SERVERS: {{ $v.kafka.bootstrapServers | quote }}
{{- $k := (index $v .component).kafka }}
{{- with $v.kafka.securityProtocol }}
KAFKA_SECURITY_PROTOCOL: {{ . | quote }}
{{- end }}
{{- if $k.scram.existingSecret }}
KAFKA_SASL_MECHANISM: {{ default "SCRAM-SHA-512" $v.kafka.saslMechanism | quote }}
{{- else if $v.kafka.saslMechanism }}
KAFKA_SASL_MECHANISM: {{ $v.kafka.saslMechanism | quote }}
{{- end }}
{{- if $v.kafka.truststore.existingSecret }}
KAFKA_SSL_TRUSTSTORE_TYPE: "PEM"
KAFKA_SSL_TRUSTSTORE_LOCATION: {{ include "route-gateway.kafkaTruststorePath" $root | quote }}
{{- end }}
{{- if $k.mtls.existingSecret }}
KAFKA_SSL_KEYSTORE_TYPE: {{ $k.mtls.keystoreType | quote }}
KAFKA_SSL_KEYSTORE_LOCATION: {{ include "route-gateway.kafkaKeystorePath" . | quote }}
{{- end }}
{{- if has .component (list "state" "recovery") }}
QUARKUS_DATASOURCE_REACTIVE_URL: {{ printf "postgresql://%s" (include "route-gateway.postgresqlUrlSuffix" $root) | quote }}
{{- if not $v.postgresql.usernameKey }}
QUARKUS_DATASOURCE_USERNAME: {{ $v.postgresql.username | quote }}
{{- end }}
{{- end }}
{{- if eq .component "state" }}
QUARKUS_DATASOURCE_JDBC_URL: {{ printf "jdbc:postgresql://%s" (include "route-gateway.postgresqlUrlSuffix" $root) | quote }}
STATE_RECOVERY_URL: {{ include "route-gateway.recoveryServiceUrl" $root | quote }}
{{- end }}
{{- /* one host policy for the three services: state-service checks a base_url when it is written, the
gateway and recovery-service the address each connection resolves to (DNS rebinding) */}}
{{- with $v.state.upstreamHosts }}
ROUTE_UPSTREAM_HOSTS_ALLOW_CLEARTEXT_PUBLIC: {{ ternary "true" "false" .allowCleartextPublic | quote }}
{{- with .allowedHosts }}
ROUTE_UPSTREAM_HOSTS_ALLOWED_HOSTS: {{ . | quote }}
{{- end }}
{{- with .cleartextHosts }}
ROUTE_UPSTREAM_HOSTS_CLEARTEXT_HOSTS: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq .component "state" }}
ROUTE_STATE_SIGNING_KEY_ID: {{ required "state.signing.keyId is required" $v.state.signing.keyId | quote }}
{{- with $v.state.signing.notAfter }}
ROUTE_STATE_SIGNING_NOT_AFTER: {{ . | quote }}
{{- end }}
{{- with $v.state.oidc }}
{{- if .enabled }}
STATE_OIDC_ENABLED: "true"
STATE_OIDC_ISSUER: {{ required "state.oidc.issuer is required when state.oidc.enabled" .issuer | quote }}
STATE_OIDC_CLIENT_ID: {{ .clientId | quote }}
{{- with .audience }}
STATE_OIDC_AUDIENCE: {{ . | quote }}
{{- end }}
{{- with .consoleClientId }}
STATE_OIDC_CONSOLE_CLIENT_ID: {{ . | quote }}
{{- end }}
STATE_OIDC_ROLES_CLAIM: {{ .rolesClaim | quote }}
{{- with .rolePrefix }}
STATE_OIDC_ROLE_PREFIX: {{ . | quote }}
{{- end }}
STATE_OIDC_TEAM_CLAIM: {{ .teamClaim | quote }}
{{- with .teamGroupPrefix }}
STATE_OIDC_TEAM_GROUP_PREFIX: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq .component "gateway" }}
{{- with $v.gateway.signing.publicKeys }}
ROUTE_STATE_SIGNING_PUBLIC_KEYS: {{ . | quote }}
{{- end }}
GATEWAY_UPSTREAM_CONNECT_TIMEOUT: {{ $v.gateway.upstream.connectTimeout | quote }}
GATEWAY_UPSTREAM_READ_GAP_TIMEOUT: {{ $v.gateway.upstream.readGapTimeout | quote }}
ROUTE_UPSTREAM_HTTP1_CONNECTIONS_PER_HOST: {{ int64 $v.gateway.upstream.http1ConnectionsPerHost | toString | quote }}
ROUTE_UPSTREAM_HTTP2_CONNECTIONS_PER_HOST: {{ int64 $v.gateway.upstream.http2ConnectionsPerHost | toString | quote }}
{{- with $v.gateway.usageBatchWindow }}
GATEWAY_PUBLISH_USAGE_BATCH_WINDOW: {{ . | quote }}
{{- end }}
GATEWAY_VIEW_PEER_OUTCOMES: {{ ternary "true" "false" $v.gateway.peerOutcomes | quote }}
GATEWAY_ADMISSION_WHEN_UNSHARED: {{ $v.gateway.admission.whenUnshared | quote }}
GATEWAY_ADMISSION_LEASE_TTL: {{ $v.gateway.admission.leaseTtl | quote }}
{{- with $v.gateway.admission.defaultKeyLimits }}
{{- if .rpm }}
GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_RPM: {{ int64 .rpm | toString | quote }}
{{- end }}
{{- if .tpm }}
GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_TPM: {{ int64 .tpm | toString | quote }}
{{- end }}
{{- if .parallelRequests }}
GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_PARALLEL_REQUESTS: {{ int64 .parallelRequests | toString | quote }}
{{- end }}
{{- end }}
GATEWAY_LOAD_MAX_CONCURRENT_REQUESTS: {{ int64 $v.gateway.load.maxConcurrentRequests | toString | quote }}
QUARKUS_HTTP_LIMITS_MAX_CONNECTIONS: {{ int64 $v.gateway.load.maxConnections | toString | quote }}
{{- if gt (int64 $v.gateway.load.maxInFlightBodyBytes) 0 }}
GATEWAY_LOAD_MAX_IN_FLIGHT_BODY_BYTES: {{ int64 $v.gateway.load.maxInFlightBodyBytes | toString | quote }}
{{- end }}
{{- if gt (int64 $v.gateway.maxRequestBytes) 0 }}
GATEWAY_REQUEST_MAX_BODY_SIZE: {{ int64 $v.gateway.maxRequestBytes | toString | quote }}
{{- end }}
{{- end }}
{{- if and $v.tracing.enabled (has .component (list "gateway" "state")) }}
QUARKUS_OTEL_SDK_DISABLED: "false"
QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {{ required "tracing.endpoint is required when tracing.enabled" $v.tracing.endpoint | quote }}
QUARKUS_OTEL_TRACES_SAMPLER_ARG: {{ $v.tracing.samplerRatio | toString | quote }}
{{- end }}
{{- if and $v.secrets.acceptV1Secrets (has .component (list "gateway" "recovery")) }}
ROUTE_SECRET_ACCEPT_V1: "true"
{{- end }}
{{- if eq .component "recovery" }}
RECOVERY_TICK_SECONDS: {{ int64 $v.recovery.tickSeconds | toString | quote }}
{{- end }}
{{- /* each producing service signs what it sends state-service with its own key (docs/security.md) */}}
{{- if has .component (list "gateway" "recovery") }}
ROUTE_PRODUCER_SIGNING_KEY_ID: {{ required (printf "%s.producerSigning.keyId is required" .component) (index $v .component).producerSigning.keyId | quote }}
{{- end }}
{{- if eq .component "state" }}
{{- with $v.state.producerSigning.publicKeys }}
ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{- define "route-gateway.kafkaTruststorePath" -}}
/etc/route-gateway/kafka-truststore/ca.crt
{{- end }}

{{/* The component's client key store (mTLS), mounted from <component>.kafka.mtls.existingSecret. */}}
{{- define "route-gateway.kafkaKeystorePath" -}}
{{- $mtls := (index .root.Values .component).kafka.mtls -}}
/etc/route-gateway/kafka-keystore/keystore.{{ eq $mtls.keystoreType "JKS" | ternary "jks" "p12" }}
{{- end }}

{{/*
Kafka client credentials of one component: its own SCRAM user or its own client certificate, so that each
service is its own principal and the brokers' ACLs decide what it may write. With a user name and a password
key the JAAS line is assembled by Kubernetes from a secretKeyRef variable ($(VAR) expansion), so the password
never appears in the pod spec.
*/}}
{{- define "route-gateway.kafkaCredentialEnv" -}}
{{- $v := .root.Values }}
{{- $k := (index $v .component).kafka }}
{{- with $v.kafka.saslJaasConfig.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "KAFKA_SASL_JAAS_CONFIG" "secret" . "key" $v.kafka.saslJaasConfig.key) }}
{{- end }}
{{- if $k.scram.existingSecret }}
{{- if $k.scram.jaasConfigKey }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "KAFKA_SASL_JAAS_CONFIG" "secret" $k.scram.existingSecret "key" $k.scram.jaasConfigKey) }}
{{- else }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_KAFKA_SCRAM_PASSWORD" "secret" $k.scram.existingSecret "key" $k.scram.passwordKey) }}
- name: KAFKA_SASL_JAAS_CONFIG
  value: {{ printf "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"%s\" password=\"$(ROUTE_KAFKA_SCRAM_PASSWORD)\";" (required (printf "%s.kafka.scram.username is required" .component) $k.scram.username) | quote }}
{{- end }}
{{- end }}
{{- if $k.mtls.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "KAFKA_SSL_KEYSTORE_PASSWORD" "secret" $k.mtls.existingSecret "key" $k.mtls.passwordKey) }}
{{- end }}
{{- end }}

{{- define "route-gateway.secretKeyRefEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "%s: existingSecret is required" .name) .secret | quote }}
      key: {{ required (printf "%s: key is required" .name) .key | quote }}
{{- end }}

{{- define "route-gateway.secretEnv" -}}
{{- $v := .root.Values }}
{{- include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_SECRET_ENCRYPTION_KEY" "secret" $v.secrets.encryptionKey.existingSecret "key" $v.secrets.encryptionKey.key) }}
{{- include "route-gateway.kafkaCredentialEnv" . }}
{{- if has .component (list "state" "recovery") }}
{{- if $v.postgresql.usernameKey }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "QUARKUS_DATASOURCE_USERNAME" "secret" $v.postgresql.existingSecret "key" $v.postgresql.usernameKey) }}
{{- end }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "QUARKUS_DATASOURCE_PASSWORD" "secret" $v.postgresql.existingSecret "key" $v.postgresql.passwordKey) }}
{{- end }}
{{- if eq .component "state" }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "STATE_ADMIN_TOKEN" "secret" $v.secrets.adminToken.existingSecret "key" $v.secrets.adminToken.key) }}
{{- if and $v.state.oidc.enabled $v.state.oidc.clientSecret.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "STATE_OIDC_CLIENT_SECRET" "secret" $v.state.oidc.clientSecret.existingSecret "key" $v.state.oidc.clientSecret.key) }}
{{- end }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_STATE_SIGNING_PRIVATE_KEY" "secret" $v.state.signing.privateKey.existingSecret "key" $v.state.signing.privateKey.key) }}
{{- end }}
{{- $publicKeys := $v.gateway.signing }}
{{- if and (eq .component "gateway") $publicKeys.publicKeys }}
{{- /* a plain value: in the ConfigMap (route-gateway.configData) */}}
{{- else if and (eq .component "gateway") $publicKeys.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_STATE_SIGNING_PUBLIC_KEYS" "secret" $publicKeys.existingSecret "key" $publicKeys.key) }}
{{- else if eq .component "gateway" }}
- name: ROUTE_STATE_SIGNING_PUBLIC_KEYS
  valueFrom:
    configMapKeyRef:
      name: {{ required "gateway.signing: publicKeys, existingSecret or existingConfigMap is required" $publicKeys.existingConfigMap | quote }}
      key: {{ $publicKeys.key | quote }}
{{- end }}
{{- if has .component (list "gateway" "recovery") }}
{{- $producer := (index $v .component).producerSigning.privateKey }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_PRODUCER_SIGNING_PRIVATE_KEY" "secret" $producer.existingSecret "key" $producer.key) }}
{{- end }}
{{- $producerKeys := $v.state.producerSigning }}
{{- if and (eq .component "state") $producerKeys.publicKeys }}
{{- /* a plain value: in the ConfigMap (route-gateway.configData) */}}
{{- else if and (eq .component "state") $producerKeys.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS" "secret" $producerKeys.existingSecret "key" $producerKeys.key) }}
{{- else if eq .component "state" }}
- name: ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS
  valueFrom:
    configMapKeyRef:
      name: {{ required "state.producerSigning: publicKeys, existingSecret or existingConfigMap is required" $producerKeys.existingConfigMap | quote }}
      key: {{ $producerKeys.key | quote }}
{{- end }}
{{- if has .component (list "state" "recovery") }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_INTERNAL_TOKEN" "secret" $v.secrets.internalToken.existingSecret "key" $v.secrets.internalToken.key) }}
{{- end }}
{{- end }}
