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
{{- with $v.kafka.securityProtocol }}
KAFKA_SECURITY_PROTOCOL: {{ . | quote }}
{{- end }}
{{- with $v.kafka.saslMechanism }}
KAFKA_SASL_MECHANISM: {{ . | quote }}
{{- end }}
{{- if $v.kafka.truststore.existingSecret }}
KAFKA_SSL_TRUSTSTORE_TYPE: "PEM"
KAFKA_SSL_TRUSTSTORE_LOCATION: {{ include "route-gateway.kafkaTruststorePath" $root | quote }}
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
{{- if eq .component "gateway" }}
GATEWAY_UPSTREAM_CONNECT_TIMEOUT: {{ $v.gateway.upstream.connectTimeout | quote }}
GATEWAY_UPSTREAM_READ_GAP_TIMEOUT: {{ $v.gateway.upstream.readGapTimeout | quote }}
{{- if gt (int64 $v.gateway.maxRequestBytes) 0 }}
GATEWAY_REQUEST_MAX_BODY_SIZE: {{ int64 $v.gateway.maxRequestBytes | toString | quote }}
{{- end }}
{{- end }}
{{- if eq .component "recovery" }}
RECOVERY_TICK_SECONDS: {{ int64 $v.recovery.tickSeconds | toString | quote }}
{{- end }}
{{- end }}

{{- define "route-gateway.kafkaTruststorePath" -}}
/etc/route-gateway/kafka-truststore/ca.crt
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
{{- with $v.kafka.saslJaasConfig.existingSecret }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "KAFKA_SASL_JAAS_CONFIG" "secret" . "key" $v.kafka.saslJaasConfig.key) }}
{{- end }}
{{- if has .component (list "state" "recovery") }}
{{- if $v.postgresql.usernameKey }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "QUARKUS_DATASOURCE_USERNAME" "secret" $v.postgresql.existingSecret "key" $v.postgresql.usernameKey) }}
{{- end }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "QUARKUS_DATASOURCE_PASSWORD" "secret" $v.postgresql.existingSecret "key" $v.postgresql.passwordKey) }}
{{- end }}
{{- if eq .component "state" }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "STATE_ADMIN_TOKEN" "secret" $v.secrets.adminToken.existingSecret "key" $v.secrets.adminToken.key) }}
{{- end }}
{{- if has .component (list "state" "recovery") }}
{{ include "route-gateway.secretKeyRefEnv" (dict "name" "ROUTE_INTERNAL_TOKEN" "secret" $v.secrets.internalToken.existingSecret "key" $v.secrets.internalToken.key) }}
{{- end }}
{{- end }}
