package flux

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// fluxSource renders the path of a Flux object (Options.Deployer): a
// HelmRelease's chart as helm-controller releases it (prepareHelmRelease),
// a Kustomization's path as kustomize-controller does: Flux's generator writes the kustomization
// it builds (fluxGenerate), kustomize builds it from the repository with
// the controller's settings (builtin plugins only, files anywhere in the
// repository), Flux's substitution runs on each object (fluxSubstitution),
// and the controller's apply step follows (fluxApply). The repository is
// never written, and everything read is recorded.
//
// Not rendered, with the reason: a remote base (the repository config
// does not let kustomize fetch it), a substituteFrom source that exists
// nowhere, and each SOPS-encrypted Secret: its values are never decrypted
// here, so the Secret is left out of the check with its keys named, rather
// than compared with values that would always differ.
type fluxSource struct {
	in *source.Input
	k  *kustomize.Builder
}

func NewSource(in *source.Input) *fluxSource {
	opts := in.Cfg.Kustomize
	// The controller builds with kustomize's builtin plugins only, and
	// loads files from anywhere in the source (the repository, which the
	// guarded file system keeps reads inside); remote content stays as
	// the repository config says.
	opts.AllowExecPlugins = false
	opts.AllowHelm = false
	opts.AllowLoadOutsideRoot = true
	// The controller reads the GitRepository's artifact, not the
	// repository: what it leaves out does not exist for this render.
	if d := in.Deployer; Renders(d) {
		a := newFluxArtifact(in.Fs.Boundary.Top(), d.SourceIgnore, in.Fs.Reads.File, in.Fs.ReadBounded)
		in.Fs.Excluded = a.excludes
	}
	return &fluxSource{in: in, k: kustomize.NewBuilder(in.Fs, opts)}
}

func (s *fluxSource) Prepare(ctx context.Context, p source.Path) (source.Build, error) {
	d := s.in.Deployer
	if isHelmRelease(d.Object) {
		return s.prepareHelmRelease(ctx, p)
	}
	if !p.Dir {
		return nil, fmt.Errorf("%s: spec.path of %s must be a directory", p.Given, s.in.Rel(s.in.RepositoryPath(d.File)))
	}
	// A change to the Kustomization changes the render.
	s.in.ReadRepositoryFile(d.File)
	ks := unstructured.Unstructured{Object: d.Object}
	where := s.in.Rel(s.in.RepositoryPath(d.File))
	notRendered := func(reason string) source.Build {
		return source.NotRenderedBuild{source.NotRendered{Source: where, Reason: reason}}
	}
	var subst *fluxSubstitution
	// The controller substitutes when spec.postBuild is set at all.
	if pb, ok, _ := unstructured.NestedFieldNoCopy(d.Object, "spec", "postBuild"); ok && pb != nil {
		var reason string
		var err error
		subst, reason, err = newFluxSubstitution(ctx, d, valuesFor(d, s.in.Values), s.in.StandIns, s.in.KeepUnresolved)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		for _, f := range subst.files {
			s.in.ReadRepositoryFile(f)
		}
		if reason != "" {
			return notRendered(reason), nil
		}
	}
	if err := fluxGenerate(s.in.Fs, d.Object, p.Real); err != nil {
		return nil, err
	}
	b, err := s.k.PrepareDir(ctx, p.Real)
	if err != nil {
		var r *kustomize.Refusal
		if errors.As(err, &r) {
			switch r.Option {
			case "allowRemote":
				return notRendered(fmt.Sprintf("%s: %s: %q: a remote base kustomize-controller fetches; kustomize.allowRemote is not set in the repository config", r.File, r.Field, r.Ref)), nil
			case "allowHelm":
				return nil, fmt.Errorf("%s: %s %s: kustomize-controller never inflates helmCharts (it builds without kustomize's --enable-helm), so Flux fails to build it too", r.File, r.Field, r.What)
			case "allowExecPlugins":
				return nil, fmt.Errorf("%s: %s: %q %s: kustomize-controller builds with kustomize's builtin plugins only, and would fail too", r.File, r.Field, r.Ref, r.What)
			}
		}
		return nil, err
	}
	return &fluxBuild{s: s, ks: ks, b: b, subst: subst}, nil
}

// fluxBuild is a Flux Kustomization's path, generated and scanned.
type fluxBuild struct {
	s     *fluxSource
	ks    unstructured.Unstructured
	b     *kustomize.PreparedBuild
	subst *fluxSubstitution // nil without postBuild
}

func (b *fluxBuild) Size() int { return b.b.Objects }

func (b *fluxBuild) Run(ctx context.Context) (source.Output, error) {
	// The controller applies the origin annotations a build asks for
	// (Flux's generator asks for them where a kustomization lists no
	// resources), which render otherwise drops as kustomize's bookkeeping.
	var origins []string
	transform := func(res *resource.Resource) error {
		if b.subst != nil {
			if err := b.subst.apply(ctx, res); err != nil {
				return err
			}
		}
		origins = append(origins, res.GetAnnotations()[kustomize.OriginAnnotation])
		return nil
	}
	raws, err := b.s.k.RunWith(b.b, transform)
	if err != nil {
		return source.Output{}, err
	}
	var out source.Output
	for i, r := range raws {
		if origins[i] != "" {
			u := unstructured.Unstructured{Object: r.Obj}
			a := u.GetAnnotations()
			if a == nil {
				a = map[string]string{}
			}
			a[kustomize.OriginAnnotation] = origins[i]
			u.SetAnnotations(a)
		}
		if SopsEncrypted(r.Obj) && !decryptionDisabled(r.Obj) && b.s.in.StandIns != nil && kindOf(r.Obj) == "Secret" {
			// The controller applies it decrypted; a check applies its
			// keys with placeholders, and compares their ownership.
			r.Obj = b.s.in.StandIns.Secret(withoutSops(r.Obj))
		} else if SopsEncrypted(r.Obj) && !decryptionDisabled(r.Obj) {
			u := unstructured.Unstructured{Object: r.Obj}
			out.NotRendered = append(out.NotRendered, source.NotRendered{
				Source: r.Where(),
				Reason: fmt.Sprintf("Secret %s: encrypted: values not checked (SOPS; never decrypted here; keys: %s)", source.NameOf(r.Obj), strings.Join(secretKeys(r.Obj), ", ")),
				Encrypted: &model.ValuesSource{Kind: "Secret", Namespace: u.GetNamespace(), Name: u.GetName(), File: r.Source,
					Encrypted: true, Keys: secretKeys(r.Obj)},
			})
			continue
		}
		substituted := b.subst != nil && !substitutionDisabled(r.Obj)
		a, err := Apply(b.ks, r.Obj)
		if err != nil {
			return source.Output{}, fmt.Errorf("%s: %w", r.Where(), err)
		}
		if a.Skip != "" {
			out.NotRendered = append(out.NotRendered, source.NotRendered{Source: r.Where(), Reason: fmt.Sprintf("%s %s: %s", kindOf(a.Obj), source.NameOf(a.Obj), a.Skip)})
			continue
		}
		r.Obj = a.Obj
		if a.note != "" {
			r.Notes = append(r.Notes, a.note)
		}
		if substituted {
			r.Hidden = b.subst.hidden
		}
		out.Objects = append(out.Objects, r.Object())
	}
	return out, nil
}

// substitutionDisabled: the object opts out of Flux's substitution.
func substitutionDisabled(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	const key = fluxGroup + "/substitute"
	return u.GetLabels()[key] == "disabled" || u.GetAnnotations()[key] == "disabled"
}

func kindOf(obj map[string]any) string {
	k, _ := obj["kind"].(string)
	return k
}

// Claims: the paths of a render for a Flux Kustomization.
func Claims(_ source.Path, d *delivery.Deployer) bool { return Renders(d) }

// Renders: the target's deployer is a Flux controller, whose render this
// package is.
func Renders(d *delivery.Deployer) bool {
	return d != nil && d.Controller == delivery.ControllerFlux
}
