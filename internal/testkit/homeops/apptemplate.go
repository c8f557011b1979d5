package homeops

import "strings"

// appTemplateFiles are a generic chart in the style of bjw-s's
// app-template, the chart most releases of a home-ops repository share:
// no workload of its own, only what each release's values describe —
// controllers and their containers, services by controller, persistence
// mounted in every container, configMaps.
func appTemplateFiles(name, version string) map[string]string {
	r := strings.NewReplacer("CHART", name, "VERSION", version)
	files := map[string]string{}
	for p, body := range map[string]string{
		"Chart.yaml":                    appTemplateChartYAML,
		"values.yaml":                   appTemplateValues,
		"templates/_helpers.tpl":        appTemplateHelpers,
		"templates/controllers.yaml":    appTemplateControllers,
		"templates/services.yaml":       appTemplateServices,
		"templates/configmaps.yaml":     appTemplateConfigMaps,
		"templates/serviceaccount.yaml": appTemplateServiceAccount,
	} {
		files[p] = r.Replace(body)
	}
	return files
}

const appTemplateChartYAML = `apiVersion: v2
name: CHART
description: A common chart every app of the cluster is released with
type: application
version: VERSION
kubeVersion: ">=1.28.0-0"
`

const appTemplateValues = `global:
  nameOverride: ""
defaultPodOptions:
  securityContext:
    runAsNonRoot: true
    runAsUser: 568
    runAsGroup: 568
    fsGroup: 568
  enableServiceLinks: false
controllers: {}
service: {}
persistence: {}
configMaps: {}
serviceAccount:
  create: false
`

const appTemplateHelpers = `{{- define "CHART.fullname" -}}
{{- default .Release.Name .Values.global.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "CHART.resourceName" -}}
{{- $root := index . 0 }}{{- $id := index . 1 }}
{{- $full := include "CHART.fullname" $root }}
{{- if or (eq $id "main") (eq $id "app") (eq $id $full) }}{{ $full }}{{ else }}{{ printf "%s-%s" $full $id | trunc 63 | trimSuffix "-" }}{{ end }}
{{- end }}

{{- define "CHART.labels" -}}
app.kubernetes.io/name: {{ include "CHART.fullname" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{- define "CHART.metadata" -}}
{{- $root := index . 0 -}}
name: {{ include "CHART.resourceName" (list $root (index . 1)) }}
namespace: {{ $root.Release.Namespace }}
labels:
  {{- include "CHART.labels" $root | nindent 2 }}
  {{- if gt (len .) 2 }}
  app.kubernetes.io/{{ index . 2 }}: {{ index . 3 }}
  {{- end }}
{{- end }}

{{- define "CHART.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "CHART.fullname" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/controller: {{ index . 1 }}
{{- end }}
`

const appTemplateControllers = `{{- range $id, $ctrl := .Values.controllers }}
{{- if ne $ctrl.enabled false }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  {{- include "CHART.metadata" (list $ $id "controller" $id) | nindent 2 }}
  {{- with $ctrl.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  replicas: {{ $ctrl.replicas | default 1 }}
  revisionHistoryLimit: 3
  strategy:
    type: {{ $ctrl.strategy | default "Recreate" }}
  selector:
    matchLabels:
      {{- include "CHART.selectorLabels" (list $ $id) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "CHART.selectorLabels" (list $ $id) | nindent 8 }}
      {{- with $ctrl.pod }}{{ with .annotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}{{ end }}
    spec:
      enableServiceLinks: {{ $.Values.defaultPodOptions.enableServiceLinks }}
      {{- if $.Values.serviceAccount.create }}
      serviceAccountName: {{ include "CHART.fullname" $ }}
      {{- end }}
      securityContext:
        {{- toYaml $.Values.defaultPodOptions.securityContext | nindent 8 }}
      containers:
      {{- range $cname, $c := $ctrl.containers }}
      - name: {{ $cname }}
        image: {{ printf "%s:%s" $c.image.repository ($c.image.tag | toString) }}
        {{- with $c.args }}
        args:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        {{- with $c.env }}
        env:
        {{- range $k, $v := . }}
        - name: {{ $k }}
          value: {{ $v | toString | quote }}
        {{- end }}
        {{- end }}
        {{- with $c.resources }}
        resources:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        {{- with $c.securityContext }}
        securityContext:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        {{- if $.Values.persistence }}
        volumeMounts:
        {{- range $vname, $v := $.Values.persistence }}
        {{- range $m := ($v.globalMounts | default (list (dict "path" (printf "/%s" $vname)))) }}
        - name: {{ $vname }}
          mountPath: {{ $m.path }}
          {{- with $m.subPath }}
          subPath: {{ . }}
          {{- end }}
          {{- if $m.readOnly }}
          readOnly: true
          {{- end }}
        {{- end }}
        {{- end }}
        {{- end }}
      {{- end }}
      {{- if $.Values.persistence }}
      volumes:
      {{- range $vname, $v := $.Values.persistence }}
      - name: {{ $vname }}
        {{- if eq $v.type "configMap" }}
        configMap:
          name: {{ include "CHART.resourceName" (list $ $v.identifier) }}
        {{- else }}
        {{- $emptyDir := dict }}
        {{- with $v.medium }}{{ $_ := set $emptyDir "medium" . }}{{ end }}
        {{- with $v.sizeLimit }}{{ $_ := set $emptyDir "sizeLimit" . }}{{ end }}
        emptyDir: {{ toYaml $emptyDir }}
        {{- end }}
      {{- end }}
      {{- end }}
{{- end }}
{{- end }}
`

const appTemplateServices = `{{- range $id, $svc := .Values.service }}
---
apiVersion: v1
kind: Service
metadata:
  {{- include "CHART.metadata" (list $ $id "service" (include "CHART.resourceName" (list $ $id))) | nindent 2 }}
spec:
  type: {{ $svc.type | default "ClusterIP" }}
  ports:
  {{- range $pname, $p := $svc.ports }}
  - name: {{ $pname }}
    port: {{ $p.port }}
    targetPort: {{ $p.targetPort | default $p.port }}
    protocol: {{ $p.protocol | default "TCP" }}
  {{- end }}
  selector:
    {{- include "CHART.selectorLabels" (list $ ($svc.controller | default $id)) | nindent 4 }}
{{- end }}
`

const appTemplateConfigMaps = `{{- range $id, $cm := .Values.configMaps }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  {{- include "CHART.metadata" (list $ $id) | nindent 2 }}
data:
  {{- toYaml $cm.data | nindent 2 }}
{{- end }}
`

const appTemplateServiceAccount = `{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "CHART.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "CHART.labels" . | nindent 4 }}
{{- end }}
`
