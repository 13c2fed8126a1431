{{- define "tickertape.labels" -}}
app.kubernetes.io/name: tickertape
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{- define "tickertape.secretName" -}}
{{- if .Values.secrets.existingSecret }}{{ .Values.secrets.existingSecret }}{{ else }}{{ .Release.Name }}-tickertape{{ end }}
{{- end }}

{{- /* The consumer group of a store, as the workers name it (services/rollup-worker/src/env.ts). */ -}}
{{- define "tickertape.groupId" -}}
{{- $level := index . 0 -}}{{- $spec := index . 1 -}}
{{- if $spec.groupId }}{{ $spec.groupId }}{{ else if eq $level "segments" }}tickertape-segments{{ else }}tickertape-rollup-{{ $level }}{{ end }}
{{- end }}

{{- /*
The Secret the topics job reads. A pre-install hook runs before the release's own objects exist,
so when the chart makes the Secret, the job gets a copy made as a hook just before it (and
deleted with it); a Secret you manage exists already.
*/ -}}
{{- define "tickertape.hookSecretName" -}}
{{- if .Values.secrets.existingSecret }}{{ .Values.secrets.existingSecret }}{{ else }}{{ .Release.Name }}-tickertape-topics{{ end }}
{{- end }}

{{- /* The keys of the chart's Secret, for it and for the topics job's copy. */ -}}
{{- define "tickertape.secretData" -}}
mongodb-uri: {{ required "secrets.mongodbUri is required" .Values.secrets.mongodbUri | quote }}
redis-url: {{ .Values.secrets.redisUrl | quote }}
{{- /* The API exits at start without a token (CONFIG_INVALID): fail the install instead. */}}
{{- if .Values.api.enabled }}
api-tokens: {{ required "secrets.apiTokens is required: the API's bearer tokens, comma-separated, each at least 16 characters (or secrets.existingSecret with an api-tokens key); without one the API exits at start with CONFIG_INVALID" .Values.secrets.apiTokens | quote }}
{{- else }}
api-tokens: {{ .Values.secrets.apiTokens | quote }}
{{- end }}
kafka-sasl-password: {{ .Values.secrets.kafkaSaslPassword | quote }}
{{- if .Values.kafka.sasl.enabled }}
# KEDA's names for the mechanism and the user (TriggerAuthentication).
kafka-sasl-mode: {{ include "tickertape.kedaSaslMode" . | quote }}
kafka-sasl-username: {{ .Values.kafka.sasl.username | quote }}
{{- end }}
{{- if .Values.schemaRegistry.auth.enabled }}
schema-registry-username: {{ required "secrets.schemaRegistryUsername is required with schemaRegistry.auth" .Values.secrets.schemaRegistryUsername | quote }}
schema-registry-password: {{ required "secrets.schemaRegistryPassword is required with schemaRegistry.auth" .Values.secrets.schemaRegistryPassword | quote }}
{{- end }}
{{- end }}

{{- /* KEDA's Kafka scaler spells the mechanisms its own way (plaintext, scram_sha256, scram_sha512). */ -}}
{{- define "tickertape.kedaSaslMode" -}}
{{- $mechanism := lower .Values.kafka.sasl.mechanism -}}
{{- $modes := dict "plain" "plaintext" "scram-sha-256" "scram_sha256" "scram-sha-512" "scram_sha512" -}}
{{- required (printf "kafka.sasl.mechanism must be plain, scram-sha-256 or scram-sha-512, not %s" $mechanism) (get $modes $mechanism) -}}
{{- end }}

{{- /* (list secretName VARIABLE key): one variable from a key of the Secret. */ -}}
{{- define "tickertape.secretEnv" -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ index . 0 }}
      key: {{ index . 2 }}
{{- end }}

{{- /* Where the Kafka TLS files are mounted. */ -}}
{{- define "tickertape.kafkaTlsDir" -}}/etc/tickertape/kafka-tls{{- end }}

{{- /*
The TLS files to mount, as (key in the Secret, file name, variable) triples; checked against each
other as the services' env schemas do (packages/config/src/security-fields.ts), so a values
mistake fails the install instead of every pod at start.
*/ -}}
{{- define "tickertape.kafkaTlsFiles" -}}
{{- $tls := .Values.kafka.tls -}}
{{- if $tls.secretName -}}
{{- if not .Values.kafka.ssl }}{{ fail "kafka.tls.secretName needs kafka.ssl=true: the services refuse TLS files without KAFKA_SSL" }}{{ end -}}
{{- if ne (empty $tls.certKey) (empty $tls.keyKey) }}{{ fail "kafka.tls.certKey and kafka.tls.keyKey go together (mutual TLS)" }}{{ end -}}
{{- if and (empty $tls.caKey) (empty $tls.certKey) }}{{ fail "kafka.tls.secretName needs kafka.tls.caKey or kafka.tls.certKey and keyKey" }}{{ end -}}
{{- $files := list -}}
{{- if $tls.caKey }}{{ $files = append $files (list $tls.caKey "ca.pem" "KAFKA_SSL_CA_FILE") }}{{ end -}}
{{- if $tls.certKey }}{{ $files = concat $files (list (list $tls.certKey "client.pem" "KAFKA_SSL_CERT_FILE") (list $tls.keyKey "client-key.pem" "KAFKA_SSL_KEY_FILE")) }}{{ end -}}
{{- toJson $files -}}
{{- else -}}
[]
{{- end -}}
{{- end }}

{{- /* (list root secretName): Kafka's address and security, for every process that talks to Kafka. */ -}}
{{- define "tickertape.kafkaEnv" -}}
{{- $root := index . 0 -}}{{- $secret := index . 1 -}}
- name: KAFKA_BROKERS
  value: {{ $root.Values.kafka.brokers | quote }}
- name: TOPIC
  value: {{ $root.Values.topic.name | quote }}
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
{{- if $root.Values.kafka.ssl }}
- name: KAFKA_SSL
  value: "true"
{{- end }}
{{- range include "tickertape.kafkaTlsFiles" $root | fromJsonArray }}
- name: {{ index . 2 }}
  value: {{ printf "%s/%s" (include "tickertape.kafkaTlsDir" $root) (index . 1) | quote }}
{{- end }}
{{- if $root.Values.kafka.sasl.enabled }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $root.Values.kafka.sasl.mechanism | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ $root.Values.kafka.sasl.username | quote }}
{{ include "tickertape.secretEnv" (list $secret "KAFKA_SASL_PASSWORD" "kafka-sasl-password") }}
{{- end }}
{{- end }}

{{- /* (list root secretName): the Schema Registry and its credentials (workers, topics job). */ -}}
{{- define "tickertape.registryEnv" -}}
{{- $root := index . 0 -}}{{- $secret := index . 1 -}}
- name: SCHEMA_REGISTRY_URL
  value: {{ $root.Values.schemaRegistry.url | quote }}
{{- if $root.Values.schemaRegistry.auth.enabled }}
{{ include "tickertape.secretEnv" (list $secret "SCHEMA_REGISTRY_USERNAME" "schema-registry-username") }}
{{ include "tickertape.secretEnv" (list $secret "SCHEMA_REGISTRY_PASSWORD" "schema-registry-password") }}
{{- end }}
{{- end }}

{{- /* A container's volumeMounts: the Kafka TLS files, when there are any. */ -}}
{{- define "tickertape.kafkaTlsMounts" -}}
{{- if .Values.kafka.tls.secretName -}}
volumeMounts:
  - name: kafka-tls
    mountPath: {{ include "tickertape.kafkaTlsDir" . }}
    readOnly: true
{{- end }}
{{- end }}

{{- /* A pod's volumes: the Kafka TLS Secret, only the keys used, under the names the env gives. */ -}}
{{- define "tickertape.kafkaTlsVolumes" -}}
{{- if .Values.kafka.tls.secretName -}}
volumes:
  - name: kafka-tls
    secret:
      secretName: {{ .Values.kafka.tls.secretName }}
      items:
        {{- range include "tickertape.kafkaTlsFiles" . | fromJsonArray }}
        - { key: {{ index . 0 | quote }}, path: {{ index . 1 }} }
        {{- end }}
{{- end }}
{{- end }}


{{- define "tickertape.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{- /* Readiness and liveness on the process's /health, served on its HTTP_PORT. */ -}}
{{- define "tickertape.probes" -}}
readinessProbe:
  httpGet: { path: /health, port: {{ . }} }
  periodSeconds: 5
  failureThreshold: 3
livenessProbe:
  httpGet: { path: /health, port: {{ . }} }
  initialDelaySeconds: 30
  periodSeconds: 10
  failureThreshold: 6
{{- end }}

{{- define "tickertape.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ index . 1 }}
  labels:
    {{- include "tickertape.labels" (index . 0) | nindent 4 }}
spec:
  maxUnavailable: {{ (index . 0).Values.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
      app.kubernetes.io/component: {{ index . 2 }}
{{- end }}

{{- /* (list root port): prometheus.io/* for a Prometheus that scrapes annotated pods (values: monitoring). */ -}}
{{- define "tickertape.scrapeAnnotations" -}}
{{- if (index . 0).Values.monitoring.scrapeAnnotations -}}
annotations:
  prometheus.io/scrape: "true"
  prometheus.io/port: {{ index . 1 | quote }}
  prometheus.io/path: /metrics
{{- end }}
{{- end }}

{{- /* The image every container runs: image.tag, or the chart's appVersion, so a release is pinned to the code it was tested with. */ -}}
{{- define "tickertape.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) | quote -}}
{{- end }}

{{- define "tickertape.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}{{ default (printf "%s-tickertape" .Release.Name) .Values.serviceAccount.name }}{{ else }}{{ default "default" .Values.serviceAccount.name }}{{ end }}
{{- end }}

{{- /*
(list root serviceAccountName): the pod-level settings every pod shares. No process talks to the
Kubernetes API, so no pod mounts a service account token.
*/ -}}
{{- define "tickertape.podSettings" -}}
{{- $root := index . 0 -}}
serviceAccountName: {{ index . 1 }}
automountServiceAccountToken: false
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{- /* A container's image, pull policy and security context. */ -}}
{{- define "tickertape.containerImage" -}}
image: {{ include "tickertape.image" . }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
{{- with .Values.securityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{- /*
(list root level spec): the lag, in records, one replica of a level carries before KEDA adds
another. A level that keeps up still holds up to rate × budget records uncommitted
(docs/scaling.md, "Budgets show as lag"), so the threshold is the expected rate times the level's
budget plus autoscaling.headroomSeconds; a level's own lagThreshold overrides it.
*/ -}}
{{- define "tickertape.lagThreshold" -}}
{{- $root := index . 0 -}}{{- $spec := index . 2 -}}
{{- if $spec.lagThreshold -}}
{{- int64 $spec.lagThreshold -}}
{{- else -}}
{{- $seconds := addf (divf (required (printf "workers.levels.%s.freshnessBudgetMs is required" (index . 1)) $spec.freshnessBudgetMs | float64) 1000) $root.Values.autoscaling.headroomSeconds -}}
{{- max 1 (ceil (mulf $root.Values.autoscaling.ticksPerSecond $seconds) | int64) -}}
{{- end -}}
{{- end }}
