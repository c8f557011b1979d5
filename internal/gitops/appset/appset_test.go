package appset

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// fixtureRepo is testdata/repo, named by its scp-like remote; the
// ApplicationSets name it by https.
var fixtureRepo = Repository{Root: "testdata/repo", URLs: []string{"git@github.com:example/gitops.git"}}

func parseAppSet(t testing.TB, src string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return m
}

// summary is an Application in one line: name, destination, source path.
func summary(app map[string]any) string {
	get := func(path ...string) string {
		var v any = app
		for _, p := range path {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		if v == nil {
			return "-"
		}
		return fmt.Sprint(v)
	}
	return strings.Join([]string{
		get("metadata", "name"),
		get("spec", "destination", "server"),
		get("spec", "destination", "namespace"),
		get("spec", "source", "path"),
	}, " ")
}

const appSetHead = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: guestbook
  namespace: argocd
spec:
`

// The examples of Argo CD's ApplicationSet documentation, with the output
// it documents for them: the list generator, the git directory generator
// with path.basename and exclude, the git files generator with its
// flattened cluster.address keys, a matrix of git directories and a list.
func TestExpandDocumentedExamples(t *testing.T) {
	cases := []struct {
		name   string
		appSet string
		want   string // the Applications, as YAML
	}{{
		name: "list generator",
		appSet: appSetHead + `  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - list:
      elements:
      - cluster: engineering-dev
        url: https://1.2.3.4
      - cluster: engineering-prod
        url: https://2.4.6.8
  template:
    metadata:
      name: '{{.cluster}}-guestbook'
    spec:
      project: my-project
      source:
        repoURL: https://github.com/argoproj/argo-cd.git
        targetRevision: HEAD
        path: applicationset/examples/list-generator/guestbook/{{.cluster}}
      destination:
        server: '{{.url}}'
        namespace: guestbook
`,
		want: `
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: engineering-dev-guestbook, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: my-project
    source: {repoURL: https://github.com/argoproj/argo-cd.git, targetRevision: HEAD, path: applicationset/examples/list-generator/guestbook/engineering-dev}
    destination: {server: https://1.2.3.4, namespace: guestbook}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: engineering-prod-guestbook, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: my-project
    source: {repoURL: https://github.com/argoproj/argo-cd.git, targetRevision: HEAD, path: applicationset/examples/list-generator/guestbook/engineering-prod}
    destination: {server: https://2.4.6.8, namespace: guestbook}
`,
	}, {
		name: "git directory generator with exclude",
		appSet: appSetHead + `  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - git:
      repoURL: https://github.com/example/gitops.git
      revision: HEAD
      directories:
      - path: cluster-addons/*
      - path: cluster-addons/exclude-helm-guestbook
        exclude: true
  template:
    metadata:
      name: '{{.path.basename}}'
    spec:
      project: my-project
      source:
        repoURL: https://github.com/example/gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{.path.basename}}'
`,
		want: `
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: argo-workflows, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: my-project
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/argo-workflows}
    destination: {server: https://kubernetes.default.svc, namespace: argo-workflows}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: prometheus-operator, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: my-project
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/prometheus-operator}
    destination: {server: https://kubernetes.default.svc, namespace: prometheus-operator}
`,
	}, {
		name: "git files generator, fasttemplate",
		appSet: appSetHead + `  generators:
  - git:
      repoURL: https://github.com/example/gitops
      revision: HEAD
      files:
      - path: cluster-config/**/config.json
  template:
    metadata:
      name: '{{cluster.name}}-guestbook'
    spec:
      project: default
      source:
        repoURL: https://github.com/argoproj/argo-cd.git
        targetRevision: HEAD
        path: applicationset/examples/git-generator-files-discovery/apps/guestbook
      destination:
        server: '{{cluster.address}}'
        namespace: guestbook
`,
		want: `
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: engineering-dev-guestbook, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: default
    source: {repoURL: https://github.com/argoproj/argo-cd.git, targetRevision: HEAD, path: applicationset/examples/git-generator-files-discovery/apps/guestbook}
    destination: {server: https://1.2.3.4, namespace: guestbook}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: engineering-prod-guestbook, namespace: argocd, finalizers: [resources-finalizer.argocd.argoproj.io]}
  spec:
    project: default
    source: {repoURL: https://github.com/argoproj/argo-cd.git, targetRevision: HEAD, path: applicationset/examples/git-generator-files-discovery/apps/guestbook}
    destination: {server: https://1.2.3.5, namespace: guestbook}
`,
	}, {
		name: "matrix of git directories and a list",
		appSet: appSetHead + `  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  syncPolicy: {preserveResourcesOnDeletion: true}
  generators:
  - matrix:
      generators:
      - git:
          repoURL: git@github.com:example/gitops.git
          revision: HEAD
          directories:
          - path: cluster-addons/*
          - path: cluster-addons/exclude-*
            exclude: true
      - list:
          elements:
          - env: dev
            server: https://dev.example
          - env: prod
            server: https://prod.example
  template:
    metadata:
      name: '{{.path.basename}}-{{.env}}'
    spec:
      project: '{{index .path.segments 0}}'
      source:
        repoURL: https://github.com/example/gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
      destination:
        server: '{{.server}}'
        namespace: '{{.path.basename}}'
`,
		want: `
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: argo-workflows-dev, namespace: argocd}
  spec:
    project: cluster-addons
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/argo-workflows}
    destination: {server: https://dev.example, namespace: argo-workflows}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: argo-workflows-prod, namespace: argocd}
  spec:
    project: cluster-addons
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/argo-workflows}
    destination: {server: https://prod.example, namespace: argo-workflows}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: prometheus-operator-dev, namespace: argocd}
  spec:
    project: cluster-addons
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/prometheus-operator}
    destination: {server: https://dev.example, namespace: prometheus-operator}
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata: {name: prometheus-operator-prod, namespace: argocd}
  spec:
    project: cluster-addons
    source: {repoURL: https://github.com/example/gitops.git, targetRevision: HEAD, path: cluster-addons/prometheus-operator}
    destination: {server: https://prod.example, namespace: prometheus-operator}
`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apps, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, tc.appSet))
			if err != nil || reason != "" {
				t.Fatalf("Expand: reason %q, err %v", reason, err)
			}
			var want []map[string]any
			if err := yaml.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(apps, want) {
				got, _ := yaml.Marshal(apps)
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Each generator and both template engines, by the Applications' summary
// lines.
func TestExpandGenerators(t *testing.T) {
	cases := []struct {
		name   string
		appSet string
		want   []string
	}{{
		name: "list, fasttemplate: values, spaces in tags, unknown tags kept",
		appSet: appSetHead + `  generators:
  - list:
      elements:
      - cluster: dev
        url: https://dev.example
        values: {team: blue}
  template:
    metadata:
      name: '{{ cluster }}-{{values.team}}'
      annotations:
        note/{{cluster}}: '{{unknown}} {{ }}'
    spec:
      source: {path: 'apps/{{cluster}}/{{.cluster}}'}
      destination: {server: '{{url}}', namespace: '{{nope}}'}
`,
		want: []string{"dev-blue https://dev.example {{nope}} apps/dev/{{.cluster}}"},
	}, {
		name: "list, elementsYaml after elements",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - list:
      elements:
      - {cluster: a}
      elementsYaml: |
        - cluster: b
          replicas: 3
  template:
    metadata: {name: '{{.cluster}}'}
    spec:
      destination: {namespace: '{{.replicas}}'}
`,
		want: []string{"a - <no value> -", "b - 3 -"},
	}, {
		name: "git directories, fasttemplate params",
		appSet: appSetHead + `  generators:
  - git:
      repoURL: https://GitHub.com/example/gitops/
      revision: main
      directories:
      - path: 'cluster-addons/[ap]*'
  template:
    metadata: {name: '{{path.basenameNormalized}}'}
    spec:
      source: {path: '{{path}}'}
      destination: {server: '{{path[0]}}', namespace: '{{path[1]}}'}
`,
		want: []string{
			"argo-workflows cluster-addons argo-workflows cluster-addons/argo-workflows",
			"prometheus-operator cluster-addons prometheus-operator cluster-addons/prometheus-operator",
		},
	}, {
		name: "git directories skip dot directories",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - git:
      repoURL: ssh://git@github.com/example/gitops.git
      directories:
      - path: '*'
      - path: '*/*'
  template:
    metadata: {name: '{{.path.basenameNormalized}}'}
    spec:
      source: {path: '{{.path.path}}'}
`,
		want: []string{
			"apps - - apps", "guestbook - - apps/guestbook",
			"cluster-addons - - cluster-addons", "argo-workflows - - cluster-addons/argo-workflows",
			"exclude-helm-guestbook - - cluster-addons/exclude-helm-guestbook",
			"prometheus-operator - - cluster-addons/prometheus-operator",
			"cluster-config - - cluster-config", "engineering - - cluster-config/engineering",
			"lists - - lists",
		},
	}, {
		name: "git files, goTemplate, nested keys and path params",
		appSet: appSetHead + `  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - git:
      repoURL: https://github.com/example/gitops.git
      files:
      - path: cluster-config/*/*/config.*
      - path: cluster-config/engineering/prod/config.json
        exclude: true
  template:
    metadata: {name: '{{.cluster.name}}'}
    spec:
      source: {path: '{{.path.path}}/{{.path.filename}}'}
      destination: {server: '{{.cluster.address}}', namespace: '{{.path.basename}}-{{index .path.segments 1}}'}
`,
		want: []string{
			"engineering-dev https://1.2.3.4 dev-engineering cluster-config/engineering/dev/config.json",
			"engineering-staging https://1.2.3.6 staging-engineering cluster-config/engineering/staging/config.yaml",
		},
	}, {
		name: "git files, fasttemplate, numbers, path[n], values",
		appSet: appSetHead + `  generators:
  - git:
      repoURL: https://github.com/example/gitops.git
      files:
      - path: cluster-config/engineering/staging/config.yaml
      values:
        where: '{{path[2]}}-{{cluster.name}}'
  template:
    metadata: {name: '{{values.where}}'}
    spec:
      source: {path: '{{path.filenameNormalized}}'}
      destination: {server: '{{cluster.address}}', namespace: 'r{{replicas}}'}
`,
		want: []string{"staging-engineering-staging https://1.2.3.6 r2 config.yaml"},
	}, {
		name: "git files, a file with a list of objects, pathParamPrefix",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - git:
      repoURL: https://github.com/example/gitops.git
      pathParamPrefix: src
      files:
      - path: lists/clusters.yaml
  template:
    metadata: {name: '{{.cluster.name}}'}
    spec:
      source: {path: '{{.src.path.path}}'}
      destination: {server: '{{.cluster.address}}'}
`,
		want: []string{"east https://east.example - lists", "west https://west.example - lists"},
	}, {
		name: "matrix, fasttemplate, second generator uses the first's params",
		appSet: appSetHead + `  generators:
  - matrix:
      generators:
      - list:
          elements:
          - {app: guestbook}
      - git:
          repoURL: https://github.com/example/gitops.git
          directories:
          - path: 'apps/{{app}}'
  template:
    metadata: {name: '{{app}}-{{path.basename}}'}
    spec:
      source: {path: '{{path}}'}
`,
		want: []string{"guestbook-guestbook - - apps/guestbook"},
	}, {
		name: "matrix, goTemplate: a git generator's values take the first's params only where they all resolve",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - matrix:
      generators:
      - list:
          elements: [{env: dev}]
      - git:
          repoURL: https://github.com/example/gitops.git
          directories: [{path: 'cluster-addons/argo-*'}]
          values:
            a: '{{.env}}'
            b: '{{.path.basename}}'
            c: '{{.path.basename}}-{{.env}}'
    selector:
      matchLabels: {values.b: argo-workflows}
  template:
    metadata: {name: '{{.path.basename}}-{{.env}}'}
    spec:
      source: {path: '{{.values.c}}'}
      destination: {server: '{{.values.a}}', namespace: '{{.values.b}}'}
`,
		want: []string{"argo-workflows-dev dev argo-workflows argo-workflows-<no value>"},
	}, {
		name: "matrix, fasttemplate: a git generator's values take the first's params",
		appSet: appSetHead + `  generators:
  - matrix:
      generators:
      - list:
          elements: [{env: dev}]
      - git:
          repoURL: https://github.com/example/gitops.git
          directories: [{path: 'cluster-addons/argo-*'}]
          values:
            c: '{{path.basename}}-{{env}}'
  template:
    metadata: {name: '{{path.basename}}-{{env}}'}
    spec:
      source: {path: '{{values.c}}'}
`,
		want: []string{"argo-workflows-dev - - argo-workflows-dev"},
	}, {
		name: "a matrix nested in a matrix",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - matrix:
      generators:
      - list: {elements: [{env: dev}, {env: prod}]}
      - matrix:
          generators:
          - list: {elements: [{region: eu}]}
          - git:
              repoURL: https://github.com/example/gitops.git
              directories: [{path: 'cluster-addons/prom*'}]
  template:
    metadata: {name: '{{.path.basename}}-{{.env}}-{{.region}}'}
`,
		want: []string{"prometheus-operator-dev-eu - - -", "prometheus-operator-prod-eu - - -"},
	}, {
		name: "merge by key, goTemplate",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - merge:
      mergeKeys: [cluster]
      generators:
      - list:
          elements:
          - {cluster: a, ns: default}
          - {cluster: b, ns: default}
      - list:
          elements:
          - {cluster: b, ns: special}
          - {cluster: c, ns: ignored}
  template:
    metadata: {name: '{{.cluster}}'}
    spec:
      destination: {namespace: '{{.ns}}'}
`,
		want: []string{"a - default -", "b - special -"},
	}, {
		name: "a generator's own template over spec.template",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - list:
      elements: [{cluster: a}]
      template:
        metadata: {name: 'own-{{.cluster}}'}
        spec:
          destination: {namespace: own}
  - list:
      elements: [{cluster: b}]
  template:
    metadata: {name: 'base-{{.cluster}}'}
    spec:
      source: {path: 'base/{{.cluster}}'}
      destination: {server: https://base, namespace: base}
`,
		want: []string{"own-a https://base own base/a", "base-b https://base base base/b"},
	}, {
		name: "selector on the flattened params",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - git:
      repoURL: https://github.com/example/gitops.git
      files:
      - path: cluster-config/**
    selector:
      matchLabels: {cluster.name: engineering-prod}
  template:
    metadata: {name: '{{.cluster.name}}'}
`,
		want: []string{"engineering-prod - - -"},
	}, {
		name: "templatePatch and Sprig",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - list:
      elements: [{cluster: Dev_1, auto: true}]
  template:
    metadata: {name: '{{ .cluster | normalize }}'}
    spec:
      destination: {namespace: '{{ .cluster | lower | replace "_" "-" }}'}
  templatePatch: |
    spec:
      source:
        path: {{ printf "apps/%s" (.cluster | upper) | quote }}
    {{- if .auto }}
      syncPolicy: {automated: {}}
    {{- end }}
`,
		want: []string{"dev-1 - dev-1 apps/DEV_1"},
	}, {
		name: "no params: the template as it is",
		appSet: appSetHead + `  goTemplate: true
  generators:
  - list:
      elements: [{}]
  template:
    metadata: {name: 'plain'}
    spec:
      source: {path: '{{.x}}'}
`,
		want: []string{"plain - - {{.x}}"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			apps, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, tc.appSet))
			if err != nil || reason != "" {
				t.Fatalf("Expand: reason %q, err %v", reason, err)
			}
			var got []string
			for _, a := range apps {
				got = append(got, summary(a))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestExpandNotExpandable(t *testing.T) {
	cases := []struct{ name, generators, reason string }{{
		name: "clusters",
		generators: `  - list: {elements: [{a: b}]}
  - clusters: {}`,
		reason: "clusters generator (spec.generators[1].clusters)",
	}, {
		name: "nested in a matrix",
		generators: `  - matrix:
      generators:
      - git: {repoURL: https://github.com/example/gitops, directories: [{path: '*'}]}
      - pullRequest: {github: {owner: o, repo: r}}`,
		reason: "pullRequest generator (spec.generators[0].matrix.generators[1].pullRequest)",
	}, {
		name:       "scmProvider",
		generators: `  - scmProvider: {}`,
		reason:     "scmProvider generator",
	}, {
		name:       "clusterDecisionResource",
		generators: `  - clusterDecisionResource: {}`,
		reason:     "clusterDecisionResource generator",
	}, {
		name:       "plugin",
		generators: `  - plugin: {}`,
		reason:     "plugin generator",
	}, {
		name: "git in another repository wins over an error before it",
		generators: `  - list: {elements: [{a: 1}]}
  - matrix:
      generators:
      - list: {elements: [{a: b}]}
      - git: {repoURL: 'git@gitlab.com:org/repo.git', files: [{path: x.json}]}`,
		reason: "git generator reads git@gitlab.com:org/repo.git: another repository",
	}, {
		name:       "git in another repository",
		generators: `  - git: {repoURL: 'https://other.example/org/repo.git', directories: [{path: '*'}]}`,
		reason:     "git generator reads https://other.example/org/repo.git: another repository",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := appSetHead + "  generators:\n" + tc.generators + "\n  template: {metadata: {name: x}}\n"
			apps, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, src))
			if err != nil || apps != nil {
				t.Fatalf("apps %v, err %v; want a reason", apps, err)
			}
			if !strings.Contains(reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", reason, tc.reason)
			}
		})
	}
}

// Errors name the ApplicationSet and the field.
func TestExpandErrors(t *testing.T) {
	cases := []struct{ name, spec, want string }{{
		name: "missingkey=error",
		spec: `  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - list: {elements: [{cluster: a}]}
  template:
    metadata: {name: '{{.clustr}}'}
`,
		want: `ApplicationSet guestbook: spec.generators[0]: spec.template.metadata.name: failed to execute go template {{.clustr}}: template: base:1:2: executing "base" at <.clustr>: map has no entry for key "clustr"`,
	}, {
		name: "a template that does not parse",
		spec: `  goTemplate: true
  generators:
  - list: {elements: [{cluster: a}]}
  template:
    metadata: {name: a}
    spec: {source: {path: '{{.cluster'}}
`,
		want: "ApplicationSet guestbook: spec.generators[0]: spec.template.spec.source.path: failed to parse template {{.cluster:",
	}, {
		name: "env is not there",
		spec: `  goTemplate: true
  generators:
  - list: {elements: [{cluster: a}]}
  template:
    metadata: {name: '{{env "HOME"}}'}
`,
		want: `function "env" not defined`,
	}, {
		name: "fasttemplate without an end tag",
		spec: `  generators:
  - list: {elements: [{cluster: a}]}
  template:
    metadata: {name: '{{cluster}}-{{x'}
`,
		want: "ApplicationSet guestbook: spec.generators[0]: spec.template.metadata.name: invalid template",
	}, {
		name: "a git files item without a path",
		spec: `  generators:
  - list: {elements: [{cluster: a}]}
  - git: {repoURL: https://github.com/example/gitops, files: [{exclude: true}]}
  template: {metadata: {name: a}}
`,
		want: "ApplicationSet guestbook: spec.generators[1].git.files[0].path: missing",
	}, {
		name: "a git generator without repoURL",
		spec: `  generators:
  - git: {directories: [{path: '*'}]}
  template: {metadata: {name: a}}
`,
		want: "ApplicationSet guestbook: spec.generators[0].git.repoURL: missing",
	}, {
		name: "fasttemplate list element not a string",
		spec: `  generators:
  - list: {elements: [{replicas: 3}]}
  template: {metadata: {name: a}}
`,
		want: "ApplicationSet guestbook: spec.generators[0].list.elements[0].replicas: error parsing value as string",
	}, {
		name: "matrix with one generator",
		spec: `  generators:
  - matrix: {generators: [{list: {elements: []}}]}
  template: {metadata: {name: a}}
`,
		want: "ApplicationSet guestbook: spec.generators[0].matrix.generators: found less than two generators",
	}, {
		name: "matrix nested two levels",
		spec: `  generators:
  - matrix:
      generators:
      - list: {elements: [{a: b}]}
      - matrix:
          generators:
          - list: {elements: [{c: d}]}
          - matrix: {generators: [{list: {elements: [{e: f}]}}, {list: {elements: [{g: h}]}}]}
  template: {metadata: {name: a}}
`,
		want: "ApplicationSet guestbook: spec.generators[0].matrix.generators[1].matrix.generators[1].matrix: a matrix or merge generator in a nested one",
	}, {
		name: "duplicate names",
		spec: `  generators:
  - list: {elements: [{c: a}, {c: a}]}
  template: {metadata: {name: '{{c}}'}}
`,
		want: "ApplicationSet guestbook: spec.generators[0]: contains applications with duplicate name: a",
	}, {
		name: "unknown goTemplateOptions",
		spec: `  goTemplate: true
  goTemplateOptions: ["missingkey=panic"]
  generators: []
`,
		want: "ApplicationSet guestbook: spec.goTemplateOptions[0]: unknown option",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, appSetHead+tc.spec))
			if err == nil || reason != "" {
				t.Fatalf("reason %q, err %v; want an error", reason, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}

// templatePatch merges objects, replaces lists and merges finalizers as a
// set, as the controller's strategic merge patch over an Application does;
// it cannot change the project.
func TestExpandTemplatePatch(t *testing.T) {
	src := appSetHead + `  goTemplate: true
  generators:
  - list: {elements: [{cluster: a}]}
  template:
    metadata:
      name: '{{.cluster}}'
      namespace: elsewhere
      labels: {keep: x}
      finalizers: [one]
    spec:
      project: one
      source: {path: p, kustomize: {images: [a, b]}}
      syncPolicy: {syncOptions: [CreateNamespace=true]}
  templatePatch: |
    metadata:
      labels: {added: '{{.cluster}}'}
      finalizers: [two, one]
    spec:
      project: other
      source: {kustomize: {images: [c]}}
      syncPolicy: {syncOptions: [ServerSideApply=true]}
`
	apps, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, src))
	if err != nil || reason != "" {
		t.Fatalf("reason %q, err %v", reason, err)
	}
	var want []map[string]any
	if err := yaml.Unmarshal([]byte(`
- apiVersion: argoproj.io/v1alpha1
  kind: Application
  metadata:
    name: a
    namespace: argocd
    labels: {keep: x, added: a}
    finalizers: [one, two]
  spec:
    project: one
    source: {path: p, kustomize: {images: [c]}}
    syncPolicy: {syncOptions: [ServerSideApply=true]}
`), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(apps, want) {
		got, _ := yaml.Marshal(apps)
		t.Errorf("got\n%s", got)
	}
}

func TestSameRepository(t *testing.T) {
	repo := Repository{URLs: []string{"git@github.com:Org/Repo.git"}}
	for u, want := range map[string]bool{
		"https://github.com/Org/Repo":             true,
		"https://GITHUB.com/Org/Repo.git":         true,
		"ssh://git@github.com/Org/Repo.git":       true,
		"ssh://git@github.com:22/Org/Repo.git":    true,
		"https://user:token@github.com/Org/Repo/": true,
		"git@github.com:Org/Repo":                 true,
		"https://github.com/org/repo":             false,
		"https://github.com/Org/Other":            false,
		"https://gitlab.com/Org/Repo":             false,
		"":                                        false,
		"github.com/Org/Repo":                     false,
	} {
		if got := sameRepository(repo, u); got != want {
			t.Errorf("sameRepository(%q) = %v, want %v", u, got, want)
		}
	}
}

func TestPathspecMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"apps/*/config.json", "apps/a/config.json", true},
		{"apps/*/config.json", "apps/a/b/config.json", true}, // git's '*' matches '/'
		{"apps/**/config.json", "apps/a/config.json", true},
		{"apps/**/config.json", "apps/config.json", false},
		{"apps", "apps/a/config.json", true},
		{"apps/", "apps/a/config.json", true},
		{"app", "apps/a/config.json", false},
		{"./apps/a/config.json", "apps/a/config.json", true},
		{"apps/[ab]/c?nfig.json", "apps/b/config.json", true},
		{"apps/[!ab]/config.json", "apps/b/config.json", false},
		{"*.yaml", "x/y.yaml", true},
		{"*.yaml", "x/y.json", false},
	} {
		if got := pathspecMatch(tc.pattern, tc.name); got != tc.want {
			t.Errorf("pathspecMatch(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestFastReplace(t *testing.T) {
	params := map[string]any{"a": "A", "n": 3.0}
	for in, want := range map[string]string{
		"{{a}}":      "A",
		"{{ a }}-x":  "A-x",
		"{{n}}":      "{{n}}", // not a string: left as it is
		"{{b}}{{a}}": "{{b}}A",
		"{{}}":       "{{}}",
		"{{a {{a}}":  "{{a {{a}}",
		"no tags":    "no tags",
	} {
		got, err := (&renderer{}).replace(in, params)
		if err != nil || got != want {
			t.Errorf("fastReplace(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// The controller's own cases for `slugify`.
func TestSlugify(t *testing.T) {
	const long = "feat/a_really+long_pull_request_name_to_test_argo_slugification_and_branch_name_shortening_feature"
	const word = "feat/areallylongpullrequestnametotestargoslugificationandbranchnameshorteningfeature"
	for _, tc := range []struct {
		name   string
		smart  bool
		length int
		want   string
	}{
		{long, false, 50, "feat-a-really-long-pull-request-name-to-test-argo"},
		{long, true, 53, "feat-a-really-long-pull-request-name-to-test-argo"},
		{word, true, 50, "feat"},
		{word, false, 50, "feat-areallylongpullrequestnametotestargoslugifica"},
	} {
		if got := slugifyName(tc.length, tc.smart, tc.name); got != tc.want {
			t.Errorf("slugify %d %v %q = %q, want %q", tc.length, tc.smart, tc.name, got, tc.want)
		}
	}
	r := &renderer{goTemplate: true}
	got, err := r.replace(`{{ slugify 20 false .b }}|{{ slugify .b }}|{{ .m | toYaml }}|{{ (fromYaml "a: 1").a }}`, map[string]any{
		"b": "Feature/Some_Branch.Name",
		"m": map[string]any{"k": "v"},
	})
	if want := "feature-some-branch|feature-some-branch-name|k: v|1"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}
