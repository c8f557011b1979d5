package check

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// helmRender is which Helm renders t's charts (delivery.HelmFor): its
// deployer's own, whose releases render some charts differently
// (docs/helm.md), read as the apply method's is, before the render.
func helmRender(t Target, versionOf func(controller string) string, recorded *delivery.HelmRender) delivery.HelmRender {
	controller := ""
	if t.Deployer != nil {
		controller = t.Deployer.Controller
	}
	return delivery.HelmFor(controller, t.HelmSet, versionOf, recorded)
}
