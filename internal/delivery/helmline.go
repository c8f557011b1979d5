package delivery

import (
	"fmt"
	"strings"
)

// The Helm releases a chart renders with, where their renders differ
// (docs/helm.md "What differs"): the deployer's own.
const (
	// Helm3 is Helm 3.18: Flux helm-controller before v1.5.0 (Flux 2.8),
	// Argo CD before 3.5.
	Helm3 = "3"
	// Helm41 is Helm 4.1: helm-controller v1.5 (Flux 2.8).
	Helm41 = "4.1"
	// Helm42 is Helm 4.2 before 4.2.4: helm-controller v1.6.0 to v1.6.2
	// (Flux 2.9), Argo CD 3.5.
	Helm42 = "4.2"
	// Helm424 is Helm 4.2.4 and later 4.2 releases (helm-controller
	// v1.6.3 on, Flux's build of it), which split documents as the newest
	// does.
	Helm424 = "4.2.4"
	// Helm4Newest is the newest Helm 4 the binary renders as (4.3): the
	// helm command line of a helm target, and a deployer whose version
	// the cluster does not say.
	Helm4Newest = "4.3"
)

// HelmRender is which Helm renders a target's charts, and why: the report
// says it beside the apply method.
type HelmRender struct {
	// Version is Helm3, Helm41, Helm42, Helm424 or Helm4Newest.
	Version string `json:"version"`
	// PostRenders: the deployer hands every document to a post-renderer,
	// hooks included (helm-controller's default strategy, its labels at
	// least), which Helm 4.2 before 4.2.4 parses one by one as it split
	// them (docs/helm.md).
	PostRenders bool `json:"-"`
	// Why says what it was chosen from: "helm-controller v1.6.0 (Flux
	// 2.9) renders with Helm 4.2".
	Why string `json:"why,omitempty"`
}

// String is the Helm as the report names it: "Helm 4.2".
func (h HelmRender) String() string { return "Helm " + h.Version }

// HelmOf is the Helm a controller's render runs, from its version (its
// image tag, "v1.6.0"; "" when the cluster does not say): helm-controller
// for Flux, the repo server for Argo CD, the helm command line for a helm
// target. A target of no controller whose charts are rendered (kustomize's
// helmCharts) runs the helm command line it finds.
func HelmOf(controller, version string) HelmRender {
	switch controller {
	case ControllerFlux:
		if version == "" {
			return HelmRender{Version: Helm4Newest, Why: "helm-controller's version not known (offline, or its Deployment flux-system/helm-controller not readable): the newest Helm 4", PostRenders: true}
		}
		major, minor, ok := majorMinor(version)
		switch {
		case !ok:
			return HelmRender{Version: Helm4Newest, Why: fmt.Sprintf("helm-controller %s: not a version, the newest Helm 4", version), PostRenders: true}
		case major < 1 || major == 1 && minor < 5:
			return HelmRender{Version: Helm3, Why: fmt.Sprintf("helm-controller %s (before Flux 2.8) renders with Helm 3", version), PostRenders: true}
		case major == 1 && minor == 5:
			return HelmRender{Version: Helm41, Why: fmt.Sprintf("helm-controller %s (Flux 2.8) renders with Helm 4.1", version), PostRenders: true}
		case major == 1 && minor == 6 && patch(version) < 3:
			return HelmRender{Version: Helm42, Why: fmt.Sprintf("helm-controller %s (Flux 2.9) renders with Helm 4.2", version), PostRenders: true}
		}
		return HelmRender{Version: Helm424, Why: fmt.Sprintf("helm-controller %s (Flux 2.9 and later) renders with Flux's build of Helm 4.2.4", version), PostRenders: true}
	case ControllerArgoCD:
		if version == "" {
			return HelmRender{Version: Helm4Newest, Why: "Argo CD's version not known (offline, or its Deployment argocd-repo-server not readable): the newest Helm 4"}
		}
		major, minor, ok := majorMinor(version)
		switch {
		case !ok:
			return HelmRender{Version: Helm4Newest, Why: fmt.Sprintf("Argo CD %s: not a version, the newest Helm 4", version)}
		case major < 3 || major == 3 && minor < 5:
			return HelmRender{Version: Helm3, Why: fmt.Sprintf("Argo CD %s (before 3.5) renders with Helm 3", version)}
		}
		return HelmRender{Version: Helm42, Why: fmt.Sprintf("Argo CD %s (3.5 and later) renders with Helm 4.2", version)}
	case ControllerHelm:
		return HelmRender{Version: Helm4Newest, Why: "a helm target: the Helm 4 command line"}
	}
	return HelmRender{Version: Helm4Newest, Why: "the helm command line, version unknown: the newest Helm 4"}
}

// SetHelm is the Helm a config's `helm: {version: ...}` sets, or why it
// cannot: "3" (or any 3.x), "4.1", "4.2", "4.3" and later 4.x, or "4"
// for the newest.
func SetHelm(version, where string) (HelmRender, error) {
	why := "set in the config (" + where + ")"
	v := strings.TrimPrefix(version, "v")
	major, minor, ok := majorMinor(v)
	if !ok {
		if v == "3" || v == "4" {
			major, minor, ok = int(v[0]-'0'), -1, true
		}
	}
	switch {
	case !ok:
	case major == 3:
		return HelmRender{Version: Helm3, Why: why}, nil
	case major == 4 && minor == 1:
		return HelmRender{Version: Helm41, Why: why}, nil
	case major == 4 && minor == 2 && patch(v) >= 4:
		return HelmRender{Version: Helm424, Why: why}, nil
	case major == 4 && minor == 2:
		return HelmRender{Version: Helm42, Why: why}, nil
	case major == 4 && (minor == -1 || minor >= 3):
		return HelmRender{Version: Helm4Newest, Why: why}, nil
	case major == 4 && minor == 0:
		// Helm 4.0 renders as 4.1 does (docs/helm.md).
		return HelmRender{Version: Helm41, Why: why}, nil
	}
	return HelmRender{}, fmt.Errorf("%q: give a Helm release: 3, 4.1, 4.2 or 4 (the newest)", version)
}

// patch is the patch release of "v1.6.3"; 0 when it says none.
func patch(version string) int {
	var major, minor, p int
	if _, err := fmt.Sscanf(strings.TrimPrefix(version, "v"), "%d.%d.%d", &major, &minor, &p); err != nil {
		return 0
	}
	return p
}

// majorMinor reads "v1.6.0", "1.6", "3.5.2-rc1".
func majorMinor(version string) (major, minor int, ok bool) {
	v := strings.TrimPrefix(version, "v")
	if _, err := fmt.Sscanf(v, "%d.%d", &major, &minor); err != nil {
		return 0, 0, false
	}
	return major, minor, true
}

// HelmFor is the Helm that renders the charts of controller's targets
// (docs/helm.md "Which Helm renders"): the config's (set; nil: none),
// else the deployer's by the version the cluster shows (versionOf, asked
// only of Flux and Argo CD; nil: none is read, as offline), else what the
// snapshot recorded at the deploy (recorded; nil: none), else HelmOf's
// default. helm-controller post-renders whichever Helm it runs.
func HelmFor(controller string, set *HelmRender, versionOf func(controller string) string, recorded *HelmRender) HelmRender {
	if set != nil {
		h := *set
		h.PostRenders = controller == ControllerFlux
		return h
	}
	version := ""
	if versionOf != nil && (controller == ControllerFlux || controller == ControllerArgoCD) {
		version = versionOf(controller)
	}
	if version == "" && recorded != nil && recorded.Version != "" && controller != ControllerHelm {
		h := *recorded
		h.Why = "as the snapshot recorded at the deploy: " + h.Why
		h.PostRenders = controller == ControllerFlux
		return h
	}
	return HelmOf(controller, version)
}
