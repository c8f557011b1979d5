package argocd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Application is what Argo CD reads of an Application to render it.
type Application struct {
	Metadata struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Project     string          `json:"project"`
		Source      *argoAppSource  `json:"source"`
		Sources     []argoAppSource `json:"sources"`
		Destination struct {
			Server    string `json:"server"`
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"destination"`
	} `json:"spec"`
}

// argoAppSource is one source of an Application. The kinds of source are
// raw: Argo CD tells the source's type by which of them is present.
type argoAppSource struct {
	RepoURL        string          `json:"repoURL"`
	Path           string          `json:"path"`
	TargetRevision string          `json:"targetRevision"`
	Chart          string          `json:"chart"`
	Ref            string          `json:"ref"`
	Helm           json.RawMessage `json:"helm"`
	Kustomize      json.RawMessage `json:"kustomize"`
	Directory      json.RawMessage `json:"directory"`
	Plugin         json.RawMessage `json:"plugin"`
}

// argoKustomize is source.kustomize (ApplicationSourceKustomize).
type argoKustomize struct {
	NamePrefix                string            `json:"namePrefix"`
	NameSuffix                string            `json:"nameSuffix"`
	Images                    []string          `json:"images"`
	Replicas                  []argoReplica     `json:"replicas"`
	CommonLabels              map[string]string `json:"commonLabels"`
	CommonAnnotations         map[string]string `json:"commonAnnotations"`
	CommonAnnotationsEnvsubst bool              `json:"commonAnnotationsEnvsubst"`
	ForceCommonLabels         bool              `json:"forceCommonLabels"`
	ForceCommonAnnotations    bool              `json:"forceCommonAnnotations"`
	LabelWithoutSelector      bool              `json:"labelWithoutSelector"`
	LabelIncludeTemplates     bool              `json:"labelIncludeTemplates"`
	Namespace                 string            `json:"namespace"`
	Patches                   []types.Patch     `json:"patches"`
	Components                []string          `json:"components"`
	IgnoreMissingComponents   bool              `json:"ignoreMissingComponents"`
	// KubeVersion and APIVersions replace the cluster's for the charts
	// of helmCharts (GetKubeVersionOrDefault, GetAPIVersionsOrDefault).
	KubeVersion string   `json:"kubeVersion"`
	APIVersions []string `json:"apiVersions"`
}

type argoReplica struct {
	Name  string             `json:"name"`
	Count intstr.IntOrString `json:"count"`
}

// intCount is KustomizeReplica.GetIntCount.
func (r argoReplica) intCount() (int, error) {
	if r.Count.Type == intstr.String {
		n, err := strconv.Atoi(r.Count.StrVal)
		if err != nil {
			return 0, fmt.Errorf("expected integer value for count. Received: %s", r.Count.StrVal)
		}
		return n, nil
	}
	return r.Count.IntValue(), nil
}

// argoDirectory is source.directory (ApplicationSourceDirectory).
type argoDirectory struct {
	Recurse bool        `json:"recurse"`
	Include string      `json:"include"`
	Exclude string      `json:"exclude"`
	Jsonnet argoJsonnet `json:"jsonnet"`
}

func ParseApplication(d *delivery.Deployer) (*Application, error) {
	j, err := json.Marshal(d.Object)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.File, err)
	}
	var app Application
	if err := json.Unmarshal(j, &app); err != nil {
		return nil, fmt.Errorf("%s: not an Argo CD Application: %w", d.File, err)
	}
	if app.Metadata.Name == "" {
		return nil, fmt.Errorf("%s: Application without metadata.name", d.File)
	}
	return &app, nil
}

// Sources are the Application's sources: spec.sources when it has any
// (Application.Spec.HasMultipleSources), else spec.source.
func (a *Application) Sources() []argoAppSource {
	if len(a.Spec.Sources) > 0 {
		return a.Spec.Sources
	}
	if a.Spec.Source != nil {
		return []argoAppSource{*a.Spec.Source}
	}
	return nil
}

// sourceAt is the source whose path, in the repository at root
// (resolved), is dir (resolved).
func (a *Application) sourceAt(root, dir string) (argoAppSource, bool) {
	for _, s := range a.Sources() {
		if s.Chart != "" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(s.Path))
		if real, err := repofs.RealPath(p); err == nil {
			p = real
		}
		if p == dir {
			return s, true
		}
	}
	return argoAppSource{}, false
}

// instanceName is Application.InstanceName: the name tracking and
// ARGOCD_APP_NAME carry.
func (a *Application) instanceName() string {
	ns := a.Metadata.Namespace
	ctrl, ok := a.Metadata.Annotations[delivery.ArgoControllerNamespaceKey]
	if ns == "" || !ok || ns == ctrl {
		return a.Metadata.Name
	}
	return ns + "_" + a.Metadata.Name
}

// present says whether a kind of source is set (ApplicationSource's
// pointers are non-nil), as ExplicitType reads them.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// Argo CD's source types (ApplicationSourceType).
const (
	argoKustomizeType = "Kustomize"
	argoHelmType      = "Helm"
	argoDirectoryType = "Directory"
	argoPluginType    = "Plugin"
)

// explicitType is ApplicationSource.ExplicitType: the one kind of source
// set, "" for none, an error for more than one.
func (s argoAppSource) explicitType() (string, error) {
	var set []string
	for _, k := range []struct {
		name string
		raw  json.RawMessage
	}{{argoKustomizeType, s.Kustomize}, {argoHelmType, s.Helm}, {argoDirectoryType, s.Directory}, {argoPluginType, s.Plugin}} {
		if present(k.raw) {
			set = append(set, k.name)
		}
	}
	switch len(set) {
	case 0:
		return "", nil
	case 1:
		return set[0], nil
	}
	return "", fmt.Errorf("multiple application sources defined: %s", strings.Join(set, ","))
}
