{{/*
Names, labels and the pieces the server, gateway and migration job share.
*/}}

{{- define "mdc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 40 | trimSuffix "-" }}
{{- end }}

{{/*
The prefix of every resource name. At most 40 characters, so that the
longest derived name (<prefix>-server-headless, and the CloudNativePG
Cluster's <prefix>-db-rw Service) stays a valid DNS label.
*/}}
{{- define "mdc.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "mdc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "mdc.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: mdc
{{- end }}

{{/* Selector labels of one component: (dict "ctx" $ "component" "server"). */}}
{{- define "mdc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mdc.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* All labels of one component's objects and pods. */}}
{{- define "mdc.componentLabels" -}}
{{ include "mdc.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "mdc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "mdc.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "mdc.secretName" -}}
{{- default (printf "%s-secrets" (include "mdc.fullname" .)) .Values.secrets.existingSecret }}
{{- end }}

{{/* The CloudNativePG Cluster, and so its Services (-rw, -ro) and Secrets (-app). */}}
{{- define "mdc.dbClusterName" -}}
{{- printf "%s-db" (include "mdc.fullname" .) }}
{{- end }}

{{/* An image reference: (dict "image" .Values.server.image "ctx" $). */}}
{{- define "mdc.image" -}}
{{- printf "%s:%s" .image.repository (default .ctx.Chart.AppVersion .image.tag) }}
{{- end }}

{{/*
DATABASE_URL (and with (dict "ctx" $ "read" true) DATABASE_READ_URL) as
container environment, never holding a password in the chart: from the
Secret CloudNativePG generates (<cluster>-app: key "uri" is the -rw Service's
URL with the password; PGPASSWORD from its key "password" lets libpq sign in
to the -ro Service, whose URL names no password), or from the external Secret.
*/}}
{{- define "mdc.databaseEnv" -}}
{{- $v := .ctx.Values.database }}
{{- if eq $v.mode "cnpg" }}
{{- $cluster := include "mdc.dbClusterName" .ctx }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $cluster }}-app
      key: uri
{{- if and .read $v.cnpg.readFromReplicas (gt (int $v.cnpg.instances) 1) }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $cluster }}-app
      key: password
- name: DATABASE_READ_URL
  value: {{ printf "postgresql://%s@%s-ro.%s:5432/%s" $v.cnpg.owner $cluster .ctx.Release.Namespace $v.cnpg.database | quote }}
{{- end }}
{{- else if eq $v.mode "external" }}
{{- $secret := required "database.external.existingSecret must name a Secret with the database URL when database.mode is external" $v.external.existingSecret }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $v.external.urlKey }}
{{- if .read }}
- name: DATABASE_READ_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $v.external.readUrlKey }}
      optional: true
{{- end }}
{{- else }}
{{- fail (printf "database.mode must be cnpg or external, not %q" $v.mode) }}
{{- end }}
{{- end }}

{{/*
Settings as ConfigMap data, refusing those the chart sets itself:
(dict "config" .Values.server.config "managed" (list ...) "where" "server.config").
*/}}
{{- define "mdc.configData" -}}
{{- range $key, $value := .config }}
{{- if has $key $.managed }}
{{- fail (printf "%s.%s is set by the chart; remove it from the values" $.where $key) }}
{{- end }}
{{- if not (regexMatch "^(MDC_[A-Z0-9_]+)$" $key) }}
{{- fail (printf "%s.%s: settings are MDC_* environment variables (README, Configuration)" $.where $key) }}
{{- end }}
{{ $key }}: {{ include "mdc.settingText" $value | quote }}
{{- end }}
{{- end }}

{{/*
A setting's value as text. YAML numbers reach templates as float64, which
text/template would write as 4.194304e+06: whole numbers are written as
integers, others as they are (0.5).
*/}}
{{- define "mdc.settingText" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) }}
{{- int64 . }}
{{- else }}
{{- toString . }}
{{- end }}
{{- end }}

{{/* A soft spread of one component's pods over nodes. */}}
{{- define "mdc.spreadOverNodes" -}}
- maxSkew: 1
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "mdc.selectorLabels" . | nindent 6 }}
{{- end }}

{{/* The writable /tmp every container gets (its root filesystem is read-only). */}}
{{- define "mdc.tmpVolumeMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}
{{- define "mdc.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end }}

{{/*
A PodDisruptionBudget's limit: (dict "pdb" .Values.server.podDisruptionBudget
"where" "server"); exactly one of maxUnavailable and minAvailable.
*/}}
{{- define "mdc.pdbLimit" -}}
{{- $max := toString .pdb.maxUnavailable }}
{{- $min := toString .pdb.minAvailable }}
{{- if and (ne $max "") (ne $min "") }}
{{- fail (printf "%s.podDisruptionBudget: set maxUnavailable or minAvailable, not both" .where) }}
{{- else if ne $max "" }}
maxUnavailable: {{ if regexMatch "^[0-9]+$" $max }}{{ $max }}{{ else }}{{ $max | quote }}{{ end }}
{{- else if ne $min "" }}
minAvailable: {{ if regexMatch "^[0-9]+$" $min }}{{ $min }}{{ else }}{{ $min | quote }}{{ end }}
{{- else }}
{{- fail (printf "%s.podDisruptionBudget: set maxUnavailable or minAvailable" .where) }}
{{- end }}
{{- end }}
