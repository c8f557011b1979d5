package homeops

import "strings"

// genericFiles are a chart as `helm create` makes it and most
// single-app charts still look: a Deployment, its Service, ServiceAccount
// and ConfigMap, an optional HPA, the helpers that name and label them.
// Every object says its namespace, as public charts do.
func genericFiles(name, version, appVersion string) map[string]string {
	r := strings.NewReplacer("CHART", name, "VERSION", version, "APPVERSION", appVersion)
	files := map[string]string{}
	for p, body := range map[string]string{
		"Chart.yaml":                    genericChartYAML,
		"values.yaml":                   genericValues,
		"templates/_helpers.tpl":        genericHelpers,
		"templates/deployment.yaml":     genericDeployment,
		"templates/service.yaml":        genericService,
		"templates/serviceaccount.yaml": genericServiceAccount,
		"templates/configmap.yaml":      genericConfigMap,
		"templates/hpa.yaml":            genericHPA,
		"templates/NOTES.txt":           "{{ include \"CHART.fullname\" . }} is running in {{ .Release.Namespace }}.\n",
		".helmignore":                   ".git/\n*.swp\n",
	} {
		files[p] = r.Replace(body)
	}
	return files
}

const genericChartYAML = `apiVersion: v2
name: CHART
description: A Helm chart for CHART
type: application
version: VERSION
appVersion: "APPVERSION"
home: https://github.com/home-ops/charts
maintainers:
- name: home-ops
`

const genericValues = `replicaCount: 1
image:
  repository: ghcr.io/home-ops/CHART
  tag: ""
  pullPolicy: IfNotPresent
nameOverride: ""
fullnameOverride: ""
serviceAccount:
  create: true
  annotations: {}
podAnnotations: {}
securityContext:
  runAsNonRoot: true
  runAsUser: 65534
service:
  type: ClusterIP
  port: 80
containerPort: 8080
env: {}
config:
  log_level: info
resources:
  requests:
    cpu: 10m
    memory: 64Mi
  limits:
    memory: 256Mi
autoscaling:
  enabled: false
  minReplicas: 1
  maxReplicas: 3
  targetCPUUtilizationPercentage: 80
`

const genericHelpers = `{{- define "CHART.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "CHART.fullname" -}}
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

{{- define "CHART.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "CHART.selectorLabels" -}}
app.kubernetes.io/name: {{ include "CHART.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "CHART.labels" -}}
helm.sh/chart: {{ include "CHART.chart" . }}
{{ include "CHART.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "CHART.metadata" -}}
name: {{ include "CHART.fullname" . }}
namespace: {{ .Release.Namespace }}
labels:
  {{- include "CHART.labels" . | nindent 2 }}
{{- end }}

{{- define "CHART.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- include "CHART.fullname" . }}
{{- else }}
{{- "default" }}
{{- end }}
{{- end }}
`

const genericDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  {{- include "CHART.metadata" . | nindent 2 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "CHART.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      annotations:
        checksum/config: {{ include (print $.Template.BasePath "/configmap.yaml") . | sha256sum }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      labels:
        {{- include "CHART.selectorLabels" . | nindent 8 }}
    spec:
      serviceAccountName: {{ include "CHART.serviceAccountName" . }}
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      containers:
      - name: {{ .Chart.Name }}
        image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
        imagePullPolicy: {{ .Values.image.pullPolicy }}
        ports:
        - name: http
          containerPort: {{ .Values.containerPort }}
          protocol: TCP
        {{- with .Values.env }}
        env:
        {{- range $k, $v := . }}
        - name: {{ $k }}
          value: {{ $v | quote }}
        {{- end }}
        {{- end }}
        envFrom:
        - configMapRef:
            name: {{ include "CHART.fullname" . }}
        livenessProbe:
          httpGet:
            path: /healthz
            port: http
        readinessProbe:
          httpGet:
            path: /readyz
            port: http
        resources:
          {{- toYaml .Values.resources | nindent 10 }}
`

const genericService = `apiVersion: v1
kind: Service
metadata:
  {{- include "CHART.metadata" . | nindent 2 }}
spec:
  type: {{ .Values.service.type }}
  ports:
  - port: {{ .Values.service.port }}
    targetPort: http
    protocol: TCP
    name: http
  selector:
    {{- include "CHART.selectorLabels" . | nindent 4 }}
`

const genericServiceAccount = `{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "CHART.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "CHART.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
`

const genericConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  {{- include "CHART.metadata" . | nindent 2 }}
data:
  {{- range $k, $v := .Values.config }}
  {{ $k | upper }}: {{ $v | quote }}
  {{- end }}
`

const genericHPA = `{{- if .Values.autoscaling.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  {{- include "CHART.metadata" . | nindent 2 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "CHART.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
`
