package flux

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Flux helm-controller's names (v1.6; the labels are its origin labels,
// the post-renderer every release goes through).
const (
	fluxHelmGroup          = "helm.toolkit.fluxcd.io"
	fluxHelmNameLabel      = fluxHelmGroup + "/name"
	fluxHelmNamespaceLabel = fluxHelmGroup + "/namespace"
	// fluxObjectNamespace is the namespace of a Flux object whose file
	// gives none: the one its target is named in (discovery's rule).
	fluxObjectNamespace = "flux-system"
	// fluxDefaultValuesKey is ValuesReference.GetValuesKey's default.
	fluxDefaultValuesKey = "values.yaml"
	// helmReleaseNameMax is the longest release name helm-controller
	// passes to Helm; a longer one is shortened (release.ShortenName).
	helmReleaseNameMax = 53
)

// fluxHelmRelease is what helm-controller reads of a HelmRelease (v2, and
// v2beta1/v2beta2, whose fields it reads alike).
type fluxHelmRelease struct {
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec struct {
		ReleaseName     string `json:"releaseName"`
		TargetNamespace string `json:"targetNamespace"`
		Chart           *struct {
			Spec struct {
				ValuesFiles              []string `json:"valuesFiles"`
				ValuesFile               string   `json:"valuesFile"` // v2beta1, deprecated
				IgnoreMissingValuesFiles bool     `json:"ignoreMissingValuesFiles"`
			} `json:"spec"`
		} `json:"chart"`
		// ChartRef is only seen to be there: discovery parsed the chart.
		ChartRef       json.RawMessage   `json:"chartRef"`
		Values         json.RawMessage   `json:"values"`
		ValuesFrom     []fluxValuesRef   `json:"valuesFrom"`
		PostRenderers  []json.RawMessage `json:"postRenderers"`
		CommonMetadata *struct {
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"commonMetadata"`
		KubeConfig json.RawMessage `json:"kubeConfig"`
		Upgrade    *struct {
			CRDs string `json:"crds"`
		} `json:"upgrade"`
	} `json:"spec"`
}

// fluxValuesRef is an entry of spec.valuesFrom (meta.ValuesReference).
type fluxValuesRef struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	ValuesKey  string `json:"valuesKey"`
	TargetPath string `json:"targetPath"`
	Optional   bool   `json:"optional"`
	Literal    bool   `json:"literal"`
}

func (r fluxValuesRef) key() string {
	if r.ValuesKey == "" {
		return fluxDefaultValuesKey
	}
	return r.ValuesKey
}

// isHelmRelease: the Flux object is a HelmRelease, not a Kustomization.
func isHelmRelease(obj map[string]any) bool {
	apiVersion, _ := obj["apiVersion"].(string)
	return kindOf(obj) == "HelmRelease" && strings.HasPrefix(apiVersion, fluxHelmGroup+"/")
}

// helmInputs is what resolving a HelmRelease reads beside the object.
type helmInputs struct {
	// Chart is the chart located: its directory (resolved), or fetched.
	Chart source.Chart
	// ReadSource reads a file of the chart's source by its path there
	// (the repository's, or a fetched chart's own: source-controller reads
	// valuesFiles from the chart's artifact); an absent file is
	// fs.ErrNotExist.
	ReadSource func(rel string) ([]byte, error)
	Values     source.ValueReader
	// StandIns stand for the values of Secrets the render must not see
	// (source.Input.StandIns).
	StandIns *model.StandIns
	// Helm reads and sets the values; nil: helm.NewEngine's.
	Helm helm.Engine
}

// fluxResolved is a HelmRelease resolved into the release it makes.
type fluxResolved struct {
	Release helm.Release
	// Reason says why it is not rendered ("" when it is).
	Reason string
	// Hidden are the values read from Secrets, as they land in objects.
	Hidden *model.Hidden
	// files are the repository files its valuesFrom sources were read from.
	files []string
}

// resolveHelmRelease is the release helm-controller makes of a
// HelmRelease: its name and namespace, the chart's defaults as
// source-controller packages them (spec.chart.spec.valuesFiles), the values
// as ChartValuesFromReferences layers them (valuesFrom in order, then
// spec.values), its kustomize post-renderers, and the labels and
// annotations helm-controller's own post-renderers add.
func resolveHelmRelease(ctx context.Context, obj map[string]any, in helmInputs) (fluxResolved, error) {
	var hr fluxHelmRelease
	if err := helm.DecodeDeployer(obj, &hr); err != nil {
		return fluxResolved{}, fmt.Errorf("not a Flux HelmRelease: %w", err)
	}
	ns := hr.Metadata.Namespace
	if ns == "" {
		ns = fluxObjectNamespace
	}
	var out fluxResolved
	// Where the chart comes from is not read here: discovery parsed it
	// (Deployer.Charts) and the chart locator found in.Chart.
	switch {
	case (len(hr.Spec.ChartRef) == 0 || string(hr.Spec.ChartRef) == "null") && hr.Spec.Chart == nil:
		return out, errors.New("HelmRelease without spec.chart or spec.chartRef")
	case len(hr.Spec.KubeConfig) > 0 && string(hr.Spec.KubeConfig) != "null":
		out.Reason = "spec.kubeConfig: helm-controller releases it to another cluster, not the discover entry's"
		return out, nil
	}
	out.Release = helm.Release{
		Chart:     in.Chart,
		Name:      shortenReleaseName(fluxReleaseName(hr)),
		Namespace: source.Or(hr.Spec.TargetNamespace, ns),
		Cluster:   helm.ClusterLive,
	}
	// The release is predicted as an upgrade, so spec.upgrade.crds is the
	// policy (helm-controller: Skip by default; Create installs only what
	// is absent, as Helm; CreateReplace applies crds/ at every upgrade).
	if hr.Spec.Upgrade != nil {
		switch hr.Spec.Upgrade.CRDs {
		case "Skip":
			out.Release.SkipCRDs = true
		case "CreateReplace":
			out.Release.CRDsUpgraded = true
		}
	}
	var err error
	// A chartRef's artifact is the chart as packaged: no values files.
	if hr.Spec.Chart != nil {
		cs := hr.Spec.Chart.Spec
		files := cs.ValuesFiles
		if cs.ValuesFile != "" {
			files = append([]string{cs.ValuesFile}, files...)
		}
		if out.Release.ChartValues, err = fluxChartValues(files, cs.IgnoreMissingValuesFiles, in.ReadSource); err != nil {
			return out, err
		}
	}
	var values map[string]any
	if len(hr.Spec.Values) > 0 {
		// As GetValues reads it: numbers become float64, as Helm's own.
		if err := yaml.Unmarshal(hr.Spec.Values, &values); err != nil {
			return out, fmt.Errorf("spec.values: %w", err)
		}
	}
	if err := out.layer(ctx, helm.Or(in.Helm), ns, values, hr.Spec.ValuesFrom, in.Values, in.StandIns); err != nil || out.Reason != "" {
		return out, err
	}
	out.Release.Labels, out.Release.Annotations = fluxHelmMetadata(hr, ns)
	if out.Release.PostRender, out.Reason, err = fluxPostRender(hr.Spec.PostRenderers); err != nil || out.Reason != "" {
		return out, err
	}
	return out, nil
}

// fluxReleaseName is HelmRelease.GetReleaseName.
func fluxReleaseName(hr fluxHelmRelease) string {
	if hr.Spec.ReleaseName != "" {
		return hr.Spec.ReleaseName
	}
	if hr.Spec.TargetNamespace != "" {
		return hr.Spec.TargetNamespace + "-" + hr.Metadata.Name
	}
	return hr.Metadata.Name
}

// shortenReleaseName is helm-controller's release.ShortenName: a name
// longer than 53 characters is cut to 40, a hyphen, and the first 12 hex
// digits of its SHA-256.
func shortenReleaseName(name string) string {
	if len(name) <= helmReleaseNameMax {
		return name
	}
	const hashLen = 12
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(name)))
	return name[:helmReleaseNameMax-(hashLen+1)] + "-" + sum[:hashLen]
}

// fluxHelmMetadata is what the post-renderers add to every object: the
// common metadata, then the origin labels, which win a clash.
func fluxHelmMetadata(hr fluxHelmRelease, ns string) (labels, annotations map[string]string) {
	labels = map[string]string{}
	if cm := hr.Spec.CommonMetadata; cm != nil {
		maps.Copy(labels, cm.Labels)
		if len(cm.Annotations) > 0 {
			annotations = maps.Clone(cm.Annotations)
		}
	}
	labels[fluxHelmNameLabel] = hr.Metadata.Name
	labels[fluxHelmNamespaceLabel] = ns
	return labels, annotations
}

// fluxChartValues is source-controller's mergeFileValues for a chart from
// a GitRepository: the files, relative to the repository's top, merged in
// order, replace the chart's values.yaml; nil when there are none (a list
// of just values.yaml is none: BuildOptions.GetValuesFiles).
func fluxChartValues(files []string, ignoreMissing bool, read func(rel string) ([]byte, error)) (map[string]any, error) {
	if len(files) == 0 || len(files) == 1 && filepath.Clean(files[0]) == helm.ValuesFile {
		return nil, nil
	}
	merged := map[string]any{}
	for _, f := range files {
		data, err := read(f)
		switch {
		case errors.Is(err, fs.ErrNotExist) && ignoreMissing:
			continue
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("spec.chart.spec.valuesFiles: no values file found at path %q", f)
		case err != nil:
			return nil, fmt.Errorf("spec.chart.spec.valuesFiles: %w", err)
		}
		values := map[string]any{}
		if err := yaml.Unmarshal(data, &values); err != nil {
			return nil, fmt.Errorf("spec.chart.spec.valuesFiles: unmarshaling values from %q failed: %w", f, err)
		}
		merged = helm.MergeValues(merged, values)
	}
	return merged, nil
}

// layer is ChartValuesFromReferences: each valuesFrom source in order,
// merged whole or set at its targetPath, then spec.values on top. A source
// that does not exist, or has not the key, is skipped when optional and
// makes the release not rendered otherwise, as the controller would not
// release it either. The order of merges and the maps they share are the
// library's (its MergeMaps is Helm's, mergeValues), so that a targetPath
// set under a key of spec.values lands as it does there.
func (out *fluxResolved) layer(ctx context.Context, e helm.Engine, ns string, values map[string]any, refs []fluxValuesRef, vr source.ValueReader, standIns *model.StandIns) error {
	type source struct {
		data  map[string]string
		found bool
		where string
	}
	read := map[string]source{}
	result := map[string]any{}
	hidden := &model.Hidden{}
	for _, ref := range refs {
		what := fmt.Sprintf("spec.valuesFrom %s %s/%s", ref.Kind, ns, ref.Name)
		if ref.Kind != "ConfigMap" && ref.Kind != "Secret" {
			out.Reason = what + ": unsupported values reference kind"
			return nil
		}
		key := ref.Kind + "/" + ref.Name
		src, ok := read[key]
		if !ok {
			if vr == nil {
				if ref.Optional {
					continue
				}
				out.Reason = what + ": cannot be read: no source of values was given"
				return nil
			}
			data, where, found, err := vr.Values(ctx, ref.Kind, ns, ref.Name, standIns)
			var withheld *delivery.ValuesWithheld
			if errors.As(err, &withheld) {
				out.Reason = what + ": " + withheld.Reason
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			if found && where != "cluster" {
				out.files = append(out.files, where)
			}
			src = source{data: data, found: found, where: where}
			read[key] = src
		}
		if !src.found {
			if ref.Optional {
				continue
			}
			out.Reason = what + ": " + delivery.ValuesNotFound(src.where)
			return nil
		}
		text, ok := src.data[ref.key()]
		if !ok {
			if ref.Optional {
				continue
			}
			out.Reason = fmt.Sprintf("%s: no key %s", what, ref.key())
			return nil
		}
		if ref.TargetPath != "" {
			result = helm.MergeValues(result, values)
			if err := fluxReplacePathValue(e, result, ref.TargetPath, text, ref.Literal); err != nil {
				out.Reason = fmt.Sprintf("%s: targetPath %s: %v", what, ref.TargetPath, err)
				return nil
			}
			if ref.Kind == "Secret" {
				hidden.Add(text, strings.Trim(text, `'"`))
			}
			continue
		}
		if keys := standIns.In(text); len(keys) > 0 {
			// A whole values document is never a placeholder's worth: the
			// keys it sets are the Secret's, which the check never reads.
			out.Reason = fmt.Sprintf("%s: key %s is a whole values document from a Secret, which a check never reads (docs/security.md): not checked", what, ref.key())
			return nil
		}
		v, err := e.ReadValues([]byte(text))
		if err != nil {
			out.Reason = fmt.Sprintf("%s: key %s is not YAML values: %v", what, ref.key(), model.NewHidden(text).HideIn(err.Error()))
			return nil
		}
		if ref.Kind == "Secret" {
			addLeaves(hidden, v)
		}
		result = helm.MergeValues(result, v)
	}
	out.Release.Values = helm.MergeValues(result, values)
	out.Hidden = hidden
	return nil
}

// fluxReplacePathValue is ReplacePathValue (a quoted value is set as a
// string) and, for a literal reference, ReplacePathLiteralValue (the value
// verbatim, strvals' syntax escaped).
func fluxReplacePathValue(e helm.Engine, values map[string]any, path, value string, literal bool) error {
	if literal {
		esc := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `[`, `\[`, `]`, `\]`, `{`, `\{`, `}`, `\}`)
		return e.ParseSet(helm.SetString, path+"="+esc.Replace(value), values, nil)
	}
	single := strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")
	double := strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)
	if single || double {
		return e.ParseSet(helm.SetString, path+"="+strings.Trim(value, `'"`), values, nil)
	}
	return e.ParseSet(helm.Set, path+"="+value, values, nil)
}

// addLeaves adds the text of every string leaf of v: what a Secret's
// values put into the objects, hidden wherever they land.
func addLeaves(h *model.Hidden, v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			addLeaves(h, e)
		}
	case []any:
		for _, e := range t {
			addLeaves(h, e)
		}
	case string:
		h.Add(t)
	}
}
