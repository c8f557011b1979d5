package check

import (
	"context"
	"sync"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
)

// A chart renders with its deployer's own Helm, whose releases render
// some charts differently (docs/helm.md): the version is read as the
// apply method's is, from the controller's image tag where the cluster
// shows it, before the render.

// helmRender is which Helm renders t's charts: the config's, else its
// deployer's by the version the cluster shows (versionOf; nil: none is
// read, as offline), else what the snapshot recorded at the deploy
// (recorded; nil: none).
func helmRender(t Target, versionOf func(controller string) string, recorded *delivery.HelmRender) delivery.HelmRender {
	controller := ""
	if t.Deployer != nil {
		controller = t.Deployer.Controller
	}
	if t.HelmSet != nil {
		h := *t.HelmSet
		// helm-controller post-renders whichever Helm it runs.
		h.PostRenders = controller == delivery.ControllerFlux
		return h
	}
	version := ""
	if versionOf != nil && (controller == delivery.ControllerFlux || controller == delivery.ControllerArgoCD) {
		version = versionOf(controller)
	}
	if version == "" && recorded != nil && recorded.Version != "" && controller != delivery.ControllerHelm {
		h := *recorded
		h.Why = "as the snapshot recorded at the deploy: " + h.Why
		h.PostRenders = controller == delivery.ControllerFlux
		return h
	}
	return delivery.HelmOf(controller, version)
}

// clusterVersions reads a controller's version from client, each once:
// the Deployment that runs helm-controller, or Argo CD's repo server in
// the namespace Argo CD runs in.
func clusterVersions(ctx context.Context, t Target, client *kube.Client) func(controller string) string {
	flux := sync.OnceValue(func() string { return deployer.HelmControllerVersion(ctx, client) })
	argo := sync.OnceValue(func() string { return deployer.ArgoCDVersion(ctx, client, argoNamespace(t.Deployer)) })
	return func(controller string) string {
		if controller == delivery.ControllerFlux {
			return flux()
		}
		return argo()
	}
}

// argoNamespace is where the Application's Argo CD runs: what discovery
// wrote on it, else the Application's own namespace.
func argoNamespace(d *delivery.Deployer) string {
	if d == nil {
		return ""
	}
	meta, _ := d.Object["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	if ns, _ := annotations[delivery.ArgoControllerNamespaceKey].(string); ns != "" {
		return ns
	}
	ns, _ := meta["namespace"].(string)
	return ns
}
