package gitops

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops/appset"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Target is a target discovered from a deployer's own object.
type Target struct {
	// Name is `<namespace>/<name>` (a Flux Kustomization),
	// `HelmRelease/<name>.<namespace>` (a Flux HelmRelease) or `<name>`
	// (Argo CD): the environment (snapshot folder, comment section).
	Name string
	// Source is the controller: delivery.ControllerFlux or ControllerArgoCD.
	Source string
	// Object is the file of the GitOps object, relative to the
	// repository's top.
	Object string
	// Paths are what the controller renders, relative to the repository's
	// top.
	Paths []string
	// FieldManager is the controller's own (kustomize-controller,
	// argocd-controller), or the config's override.
	FieldManager string
	// Context is the kubeconfig context of the cluster it applies to.
	Context string
	// Deployer is the controller's object, for render.
	Deployer *delivery.Deployer
	// Apply is how the controller applies, from its object (Argo CD's
	// sync options, a HelmRelease's serverSideApply) or the discover
	// entry's `apply:`.
	Apply delivery.ApplyMethod
	// HelmSet is the Helm the discover entry's `helm:` sets for its
	// charts; nil: the controller's (delivery.HelmOf).
	HelmSet *delivery.HelmRender
	// Reason says why the target is not checked ("" when it is): a source
	// in another repository, a remote base, anything the render cannot
	// reproduce.
	Reason string
	// Inputs are files, beyond what its render reads, whose change
	// affects it: its object's own file, its substitution sources' files.
	// Relative to the repository's top.
	Inputs []string
	// Dir is the discover entry's directory the target was found under:
	// its controller's objects for one cluster, where the repository's
	// ConfigMaps and Secrets it takes values from are looked up.
	Dir string
	// Notes say what the deployer's way of applying means for the findings
	// beyond Apply (a HelmRelease installed client-side).
	Notes []string
	// NotTargets are the deployer's objects in its paths that its render
	// would apply and that are no targets of their own: its render fails
	// or leaves them out, or it is not checked.
	NotTargets []NotTarget
}

// objectName names the target's own object as its reasons do:
// "Kustomization flux-system/apps", "Application guestbook".
func (t Target) objectName() string {
	if t.Deployer == nil {
		return t.Name
	}
	kind, _ := t.Deployer.Object["kind"].(string)
	meta, _ := t.Deployer.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if t.Source == delivery.ControllerFlux {
		ns = or(ns, fluxNamespace)
	}
	if ns != "" {
		name = namespacedName(ns, name)
	}
	return kind + " " + name
}

// Checked says whether the target is rendered and checked.
func (t Target) Checked() bool { return t.Reason == "" }

// Repository is this repository as discovery sees it: the files of its
// working tree, and the URLs that name it (its git remotes), which tell a
// source in this repository from one in another.
type Repository struct {
	Root string   // the working tree's top
	URLs []string // the remotes' URLs, as git prints them
	// RenderParent renders an app-of-apps' paths as its controller does,
	// for the Applications a kustomization or a chart there makes. nil:
	// those are not discovered, and the parent says so.
	RenderParent ParentRenderer
	// TreeOf reads the tree a pinned revision holds; nil: every path is
	// read in the working tree.
	TreeOf TreeReader
	// Want, when set, is the one target the caller needs (`render
	// --target`): a parent is rendered for its children only when its
	// files mention the wanted object's name, so that only the chain that
	// leads to it is rendered. The other targets found are then not all
	// there are, nor each as a whole discovery finds it; the wanted one
	// is, when it is found.
	Want string
	// clusters are the Argo CD entry's registered clusters, for an
	// ApplicationSet's clusters generator (applicationSet sets them).
	clusters []appset.Cluster
}

// ParentRenderer renders a discovered target (root is the repository's
// top) as its controller would, for discovery: the objects it makes, the
// files it read (relative to root), and what it could not render.
// Discovery never renders by itself; the caller gives it render's.
type ParentRenderer func(ctx context.Context, root string, parent Target) (Rendered, error)

// Rendered is what a ParentRenderer made.
type Rendered struct {
	Objects []RenderedObject
	// Files are every file the render read, relative to the root.
	Files []string
	// NotRendered says what of the paths was not rendered, and why.
	NotRendered []string
	// Encrypted are the Secrets the render left out as SOPS encrypted
	// them: keys, no value (render.Discovered.Encrypted).
	Encrypted []model.ValuesSource
}

// RenderedObject is one object of a render, and where it came from.
type RenderedObject struct {
	File   string // relative to the root; a chart's template for a chart
	Line   int
	Object map[string]any
	// FromSecret are its fields that hold a Secret's placeholder, which
	// the parent's substitution put there (model.Object.FromSecret).
	FromSecret []model.SecretField
}

// Discover finds the targets of the config's discover entries in repo,
// sorted by name. An object it cannot read is an error naming its file;
// one it reads but cannot render as its controller would is a Target with
// a Reason.
//
// Two entries for different clusters may find objects of the same name
// (every Flux cluster folder has its flux-system/flux-system): each such
// target is then named after its cluster too, `<context>/<name>`. The same
// name twice for one cluster is an error listing every clash and its
// files, in name order.
func Discover(ctx context.Context, repo Repository, entries []config.Discover) ([]Target, error) {
	return discover(ctx, repo, entries)
}

// RenderedOf is a render's objects (each Source relative to the root),
// files read and reasons, as discovery reads them.
func RenderedOf(objs []model.Object, files, notRendered []string) Rendered {
	out := Rendered{Files: files, NotRendered: notRendered}
	for _, o := range objs {
		out.Objects = append(out.Objects, RenderedObject{File: o.Source, Line: o.Line, Object: o.Object.Object, FromSecret: o.FromSecret})
	}
	return out
}
