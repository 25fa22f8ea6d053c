{{/*
Names, labels and the component table. Most helpers take a context dict:
  (dict "root" $ "component" "gateway")   component is one of: gateway, state, recovery
*/}}

{{- define "route-gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "route-gateway.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "route-gateway.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The three services. The HTTP port (API) and the management port (health and metrics) of each are fixed
by the service itself (quarkus.http.port and quarkus.management.port in its application.properties);
deploy-check fails the build when they disagree.
*/}}
{{- define "route-gateway.components" -}}
gateway:
  service: gateway-service
  port: 8080
  managementPort: 9080
state:
  service: state-service
  port: 8081
  managementPort: 9081
recovery:
  service: recovery-service
  port: 8082
  managementPort: 9082
{{- end }}

{{- define "route-gateway.component" -}}
{{- $all := fromYaml (include "route-gateway.components" .root) }}
{{- toYaml (index $all .component) }}
{{- end }}

{{/* Resource name of a component: <fullname>-<component>, e.g. route-gateway-state. */}}
{{- define "route-gateway.componentName" -}}
{{- printf "%s-%s" (include "route-gateway.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels selecting every pod of this release. */}}
{{- define "route-gateway.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "route-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels selecting the pods of one component (immutable: used in Deployment selectors). */}}
{{- define "route-gateway.selectorLabels" -}}
{{- $c := fromYaml (include "route-gateway.component" .) }}
{{- include "route-gateway.releaseSelectorLabels" .root }}
app.kubernetes.io/component: {{ $c.service }}
{{- end }}

{{/*
Labels of every resource. `app` names the deployable (the service, or the release for shared resources),
`application` the release of the route gateway, `system` the system it belongs to.
*/}}
{{- define "route-gateway.labels" -}}
{{- $root := .root -}}
helm.sh/chart: {{ include "route-gateway.chart" $root }}
{{ include "route-gateway.releaseSelectorLabels" $root }}
{{- if .component }}
{{- $c := fromYaml (include "route-gateway.component" .) }}
app.kubernetes.io/component: {{ $c.service }}
app: {{ $c.service }}
{{- else }}
app: {{ include "route-gateway.fullname" $root }}
{{- end }}
app.kubernetes.io/version: {{ default $root.Chart.AppVersion $root.Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: {{ $root.Values.system }}
application: {{ include "route-gateway.fullname" $root }}
system: {{ $root.Values.system }}
{{- with $root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "route-gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "route-gateway.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "route-gateway.image" -}}
{{- $root := .root -}}
{{- $img := (index $root.Values .component).image }}
{{- $repo := $img.repository }}
{{- if $root.Values.image.registry }}
{{- $repo = printf "%s/%s" (trimSuffix "/" $root.Values.image.registry) $img.repository }}
{{- end }}
{{- if $img.digest }}
{{- printf "%s@%s" $repo $img.digest }}
{{- else }}
{{- printf "%s:%s" $repo (default (default $root.Chart.AppVersion $root.Values.image.tag) $img.tag) }}
{{- end }}
{{- end }}

{{/* Base URL of recovery-service inside the namespace (state.recovery-url: the admin API's model test). */}}
{{- define "route-gateway.recoveryServiceUrl" -}}
{{- printf "http://%s:%v" (include "route-gateway.componentName" (dict "root" . "component" "recovery")) .Values.recovery.service.port }}
{{- end }}

{{- define "route-gateway.postgresqlUrlSuffix" -}}
{{- printf "%s:%v/%s" .Values.postgresql.host .Values.postgresql.port .Values.postgresql.database }}
{{- with .Values.postgresql.urlParams }}?{{ . }}{{ end }}
{{- end }}
