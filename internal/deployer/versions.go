package deployer

import (
	"context"
	"sync"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
)

// ControllerVersions reads a controller's version from client, each once
// for a check (delivery.HelmFor asks it): the Deployment that runs
// helm-controller, or Argo CD's repo server in the namespace d's Argo CD
// runs in.
func ControllerVersions(ctx context.Context, client *kube.Client, d *delivery.Deployer) func(controller string) string {
	flux := sync.OnceValue(func() string { return HelmControllerVersion(ctx, client) })
	argo := sync.OnceValue(func() string { return ArgoCDVersion(ctx, client, argoNamespace(d)) })
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
