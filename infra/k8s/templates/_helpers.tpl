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

{{- define "tickertape.secretEnv" -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "tickertape.secretName" (index . 0) }}
      key: {{ index . 2 }}
{{- end }}

{{- /* Kafka's address and security, for every process that talks to Kafka. */ -}}
{{- define "tickertape.kafkaEnv" -}}
- name: KAFKA_BROKERS
  value: {{ .Values.kafka.brokers | quote }}
- name: TOPIC
  value: {{ .Values.topic.name | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- if .Values.kafka.ssl }}
- name: KAFKA_SSL
  value: "true"
{{- end }}
{{- if .Values.kafka.sasl.enabled }}
- name: KAFKA_SASL_MECHANISM
  value: {{ .Values.kafka.sasl.mechanism | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ .Values.kafka.sasl.username | quote }}
{{ include "tickertape.secretEnv" (list . "KAFKA_SASL_PASSWORD" "kafka-sasl-password") }}
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
