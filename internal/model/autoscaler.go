package model

import "strings"

// ReplicasPath is the field an autoscaler scales.
const ReplicasPath = ".spec.replicas"

// autoscalerKinds are the kinds that set an autoscaler up (a KEDA
// ScaledObject drives an HPA of its own).
var autoscalerKinds = map[string]bool{"HorizontalPodAutoscaler": true, "ScaledObject": true}

// Autoscales tells whether the controller is an autoscaler, which owns the
// replicas of its target: a manifest must leave them out, not pin them.
func (c Controller) Autoscales() bool {
	if c.Object != nil {
		return autoscalerKinds[c.Object.Kind]
	}
	return c.Name == "HorizontalPodAutoscaler" || strings.HasPrefix(c.Name, "KEDA")
}

// AutoscalerManager tells whether manager m writing a workload's replicas is
// an autoscaler: the HPA controller scales through the scale subresource as
// kube-controller-manager (which writes replicas for nothing else), and
// other autoscalers name themselves so.
func AutoscalerManager(m Manager) bool {
	if m.Manager == "kube-controller-manager" && m.Subresource == "scale" {
		return true
	}
	name := strings.ToLower(m.Manager)
	for _, w := range []string{"hpa", "autoscaler", "keda"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
