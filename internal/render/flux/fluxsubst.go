package flux

import (
	"context"
	"errors"
	"fmt"

	fluxkustomize "github.com/fluxcd/pkg/kustomize"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// fluxSubstitution is Flux's postBuild for one Kustomization: the values
// of its substituteFrom ConfigMaps and Secrets, read once from the
// ValueReader, and the library's SubstituteVariables run on each object
// of the build with them.
type fluxSubstitution struct {
	ks unstructured.Unstructured
	// strict: a variable with no value and no default fails
	// (delivery.Deployer.StrictSubstitution).
	strict bool
	// values are the sources' data, by kind/namespace/name; an absent key
	// is a source that does not exist (an optional one).
	values map[string]map[string]string
	// hidden are the values read from Secrets: never shown.
	hidden *model.Hidden
	// files are where the repository's sources are written (relative to
	// its top), which the target depends on.
	files []string
	// unresolved are the sources that could not be read, by valuesKey,
	// when the render keeps their variables in place (discovery).
	unresolved map[string]bool
	// placeholders are what each unresolved source answers for the object
	// being substituted (fluxunresolved.go).
	placeholders map[string]string
	// standIns are the render's placeholders for Secret values; with them,
	// a variable only an unresolved Secret may set stands as its
	// placeholder (lastSecret's key), not as ${VAR}.
	standIns *model.StandIns
	// lastSecret is the last unresolved Secret of substituteFrom: the one
	// whose value wins where several set a variable.
	lastSecret string
}

// substituteRef is an entry of spec.postBuild.substituteFrom.
type substituteRef struct {
	Kind, Name string
	Optional   bool
}

// newFluxSubstitution reads the Kustomization's substituteFrom sources.
// A source that does not exist and is not optional makes the target not
// rendered (the controller would not apply it either): the reason is
// returned, with what was read until then. With keep (discovery), such a
// source, or one that is withheld, is unresolved instead: its variables
// stay in place.
func newFluxSubstitution(ctx context.Context, d *delivery.Deployer, vr source.ValueReader, standIns *model.StandIns, keep bool) (*fluxSubstitution, string, error) {
	ks := d.Object
	u := unstructured.Unstructured{Object: ks}
	s := &fluxSubstitution{ks: u, strict: d.StrictSubstitution, values: map[string]map[string]string{}, hidden: &model.Hidden{}, standIns: standIns}
	refs, err := substituteFrom(ks)
	if err != nil {
		return nil, "", err
	}
	ns := fluxNamespace(u)
	for _, r := range refs {
		if r.Kind != "ConfigMap" && r.Kind != "Secret" {
			// The controller reads no other kind, and says nothing.
			continue
		}
		what := fmt.Sprintf("postBuild.substituteFrom %s %s/%s", r.Kind, ns, r.Name)
		var (
			data  map[string]string
			found bool
			where string
		)
		if vr != nil {
			data, where, found, err = vr.Values(ctx, r.Kind, ns, r.Name, standIns)
			var withheld *delivery.ValuesWithheld
			if errors.As(err, &withheld) && keep {
				if where != "" && where != "cluster" {
					s.files = append(s.files, where)
				}
				s.unresolve(r)
				continue
			}
			if errors.As(err, &withheld) {
				return s, what + ": " + withheld.Reason, nil
			}
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", what, err)
			}
			if found && where != "cluster" {
				s.files = append(s.files, where)
			}
		}
		switch {
		case found:
			s.values[valuesKey(r.Kind, ns, r.Name)] = data
		case r.Optional:
		case keep:
			s.unresolve(r)
			continue
		case vr == nil:
			return s, what + ": cannot be read: no source of values was given", nil
		default:
			return s, what + ": " + delivery.ValuesNotFound(where), nil
		}
		if r.Kind == "Secret" {
			// Add keeps them as substituted too: the controller drops
			// newlines.
			for _, v := range data {
				s.hidden.Add(v)
			}
		}
	}
	return s, "", nil
}

// substituteFrom reads spec.postBuild.substituteFrom as the library does.
func substituteFrom(ks map[string]any) ([]substituteRef, error) {
	list, _, err := unstructured.NestedSlice(ks, "spec", "postBuild", "substituteFrom")
	if err != nil {
		return nil, fmt.Errorf("spec.postBuild.substituteFrom: %w", err)
	}
	refs := make([]substituteRef, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("spec.postBuild.substituteFrom[%d]: not a mapping", i)
		}
		kind, _ := m["kind"].(string)
		name, _ := m["name"].(string)
		optional, _ := m["optional"].(bool)
		refs = append(refs, substituteRef{Kind: kind, Name: name, Optional: optional})
	}
	return refs, nil
}

// apply runs Flux's substitution on one object of the build, through the
// library, as kustomize-controller does: strict (a variable without a
// value or a default fails) only where the repository config says the
// cluster's controller runs with StrictPostBuildSubstitutions, not by
// default, as the controller. Its errors never quote a Secret's value.
func (s *fluxSubstitution) apply(ctx context.Context, res *resource.Resource) error {
	if err := s.placeholdersFor(res); err != nil {
		return err
	}
	_, err := fluxkustomize.SubstituteVariables(ctx, valuesClient{s: s}, s.ks, res, fluxkustomize.SubstituteWithStrict(s.strict))
	if err != nil {
		msg := s.hidden.HideIn(err.Error())
		return fmt.Errorf("%s %s: postBuild: %s", res.GetKind(), res.GetName(), msg)
	}
	return nil
}

func valuesKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// fluxNamespace is the Kustomization's namespace: where its
// substituteFrom sources are, and its owner label's value.
func fluxNamespace(ks unstructured.Unstructured) string {
	if ns := ks.GetNamespace(); ns != "" {
		return ns
	}
	return "default"
}

// valuesClient is the controller-runtime client the library reads
// substituteFrom sources with: a read-only view of the values read
// already (the repository's objects first, else the cluster's, as the
// ValueReader answered). The library calls Get of ConfigMaps and Secrets
// only; the embedded interface is nil, so any other call is a bug here
// and fails loudly.
type valuesClient struct {
	client.Client
	s *fluxSubstitution
}

func (c valuesClient) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	var kind, resource string
	switch obj.(type) {
	case *corev1.ConfigMap:
		kind, resource = "ConfigMap", "configmaps"
	case *corev1.Secret:
		kind, resource = "Secret", "secrets"
	default:
		return fmt.Errorf("%T %s: %w", obj, key, errNotAValueSource)
	}
	data, ok := c.s.values[valuesKey(kind, key.Namespace, key.Name)]
	if c.s.unresolved[valuesKey(kind, key.Namespace, key.Name)] {
		data, ok = c.s.placeholders, true
	}
	if !ok {
		return apierrors.NewNotFound(schema.GroupResource{Resource: resource}, key.Name)
	}
	switch o := obj.(type) {
	case *corev1.ConfigMap:
		o.Data = data
	case *corev1.Secret:
		o.Data = make(map[string][]byte, len(data))
		for k, v := range data {
			o.Data[k] = []byte(v)
		}
	}
	return nil
}

var errNotAValueSource = errors.New("not a source of values: only ConfigMaps and Secrets are")
