package config

import (
	"fmt"
	"path"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Discover names where a deployer's own objects live: every Flux
// Kustomization (and HelmRelease) under Flux, or every Argo CD Application
// (and the Applications an ApplicationSet makes) under ArgoCD, whose source
// is this repository, is a target (docs/gitops.md, "The discover
// config").
type Discover struct {
	Flux   string `json:"flux,omitempty"`
	ArgoCD string `json:"argocd,omitempty"`
	// Context is the kubeconfig context of the cluster Flux's objects
	// apply to; CurrentContext to use the kubeconfig's current one.
	Context string `json:"context,omitempty"`
	// Clusters maps an Application's destination (server URL or name) to
	// a kubeconfig context. The config writes it as that map, or as a list
	// of clusters (ClusterList), whose names and servers fill it.
	Clusters map[string]string `json:"clusters,omitempty"`
	// ClusterList is `clusters:` written as a list (argoclusters.go): what
	// an ApplicationSet's clusters generator reads.
	ClusterList []ArgoCluster `json:"-"`
	// FieldManager overrides the controller's own field manager.
	FieldManager string `json:"fieldManager,omitempty"`
	// Tracking is how the Argo CD installation tracks what it applies
	// (argocd-cm's application.resourceTrackingMethod and its companions):
	// it belongs to the installation, not to an Application.
	Tracking *ArgoTracking `json:"tracking,omitempty"`
	// KustomizeBuildOptions are the flags the Argo CD installation's repo
	// server adds to `kustomize build` (argocd-cm's kustomize.buildOptions),
	// over what discovery reads from the installation's own argocd-cm in
	// the repository; set (even empty), it is taken as written.
	KustomizeBuildOptions *string `json:"kustomizeBuildOptions,omitempty"`
	// StrictSubstitution says the cluster's kustomize-controller runs with
	// --feature-gates=StrictPostBuildSubstitutions=true: a ${var} of
	// postBuild that no source sets and has no default fails its build.
	StrictSubstitution bool `json:"strictSubstitution,omitempty"`
	// Apply says how the controller applies every target found here,
	// over what each object says (apply.go).
	Apply *ApplyConfig `json:"apply,omitempty"`
	// Helm says which Helm renders the charts of every target found here,
	// over what the controller's version says (helmline.go).
	Helm *HelmVersion `json:"helm,omitempty"`
}

// ArgoTracking is an Argo CD installation's resource tracking.
type ArgoTracking struct {
	// Method is annotation (Argo CD 3's default), label or
	// annotation+label.
	Method string `json:"method,omitempty"`
	// InstanceLabelKey is the label of label tracking
	// (application.instanceLabelKey; app.kubernetes.io/instance).
	InstanceLabelKey string `json:"instanceLabelKey,omitempty"`
	// InstallationID is argocd-cm's installationID, written on every
	// object the installation applies.
	InstallationID string `json:"installationID,omitempty"`
	// ControllerNamespace is where Argo CD runs (for Applications in any
	// namespace); the Application's own namespace when unset.
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
}

// CurrentContext is the context a discover entry names to use the
// kubeconfig's current context on purpose: a required status check that
// silently followed whatever context the runner's kubeconfig selects
// would check one cluster for another's deploy.
const CurrentContext = "current"

// KubeContext is the kubeconfig context a discover entry's context names:
// "" (the current context) for CurrentContext.
func KubeContext(c string) string {
	if c == CurrentContext {
		return ""
	}
	return c
}

// Dir is the directory the entry names, and which controller's it is.
func (d Discover) Dir() (dir, controller string) {
	if d.Flux != "" {
		return d.Flux, delivery.ControllerFlux
	}
	return d.ArgoCD, delivery.ControllerArgoCD
}

func (d Discover) validate() error {
	if (d.Flux == "") == (d.ArgoCD == "") {
		return fmt.Errorf("give one of flux: DIR or argocd: DIR")
	}
	dir, controller := d.Dir()
	clean := path.Clean(dir)
	if path.IsAbs(clean) || repofs.Leaves(clean) {
		return fmt.Errorf("%s: %q: give a directory inside the repository, relative to its top", controller, dir)
	}
	if controller == delivery.ControllerFlux && len(d.Clusters) > 0 {
		return fmt.Errorf("flux: clusters: Flux applies to the cluster it runs in; give context")
	}
	if controller == delivery.ControllerFlux && d.Context == "" {
		return fmt.Errorf("give context: <kubeconfig context>, or context: %s to use the current one", CurrentContext)
	}
	if err := d.validateClusters(); err != nil {
		return err
	}
	if d.StrictSubstitution && controller != delivery.ControllerFlux {
		return fmt.Errorf("argocd: strictSubstitution: is kustomize-controller's (Flux's postBuild)")
	}
	if d.KustomizeBuildOptions != nil && controller == delivery.ControllerFlux {
		return fmt.Errorf("flux: kustomizeBuildOptions: is Argo CD's (argocd-cm's kustomize.buildOptions); kustomize-controller takes no build flags")
	}
	if t := d.Tracking; t != nil {
		if controller == delivery.ControllerFlux {
			return fmt.Errorf("flux: tracking: is Argo CD's; Flux labels what it applies with its own keys")
		}
		switch t.Method {
		case "", "annotation", "label", "annotation+label":
		default:
			return fmt.Errorf("argocd: tracking.method: %q: give annotation, label or annotation+label, as argocd-cm's application.resourceTrackingMethod", t.Method)
		}
	}
	return nil
}

func (c *Config) validateDiscover() error {
	for i, d := range c.Discover {
		if err := d.validate(); err != nil {
			return fmt.Errorf("discover[%d]: %w", i, err)
		}
		if d.Apply != nil {
			if err := d.Apply.validate(); err != nil {
				return fmt.Errorf("discover[%d].%w", i, err)
			}
		}
		if d.Helm != nil {
			dir, controller := d.Dir()
			if err := validateHelmVersion(d.Helm.Version, "discover entry "+controller+": "+dir); err != nil {
				return fmt.Errorf("discover[%d].%w", i, err)
			}
		}
	}
	return nil
}
