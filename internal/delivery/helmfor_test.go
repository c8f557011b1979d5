package delivery

import "testing"

// TestHelmFor: the config's Helm wins over the deployer's version,
// helm-controller's post-rendering stays with it; without a version read
// (offline), each deployer renders with the newest Helm 4.
func TestHelmFor(t *testing.T) {
	versions := func(controller string) string {
		return map[string]string{ControllerFlux: "v1.4.2", ControllerArgoCD: "v3.5.0"}[controller]
	}
	set, err := SetHelm("4.1", "target prod")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, controller string
		set              *HelmRender
		versions         func(string) string
		want             string
		postRenders      bool
	}{
		{"flux", ControllerFlux, nil, versions, Helm3, true},
		{"flux offline", ControllerFlux, nil, nil, Helm4Newest, true},
		{"flux set", ControllerFlux, &set, versions, Helm41, true},
		{"argo", ControllerArgoCD, nil, versions, Helm42, false},
		{"argo set", ControllerArgoCD, &set, versions, Helm41, false},
		{"plain", "", nil, versions, Helm4Newest, false},
	} {
		got := HelmFor(tc.controller, tc.set, tc.versions, nil)
		if got.Version != tc.want || got.PostRenders != tc.postRenders || got.Why == "" {
			t.Errorf("%s: %+v, want %s, post-rendered %v", tc.name, got, tc.want, tc.postRenders)
		}
	}
}

// TestHelmForOffline: offline, the Helm the snapshot recorded at the
// deploy renders, unless the config sets one; a snapshot of no chart
// leaves the newest Helm 4.
func TestHelmForOffline(t *testing.T) {
	recorded := &HelmRender{Version: Helm41, Why: "helm-controller v1.5.0 (Flux 2.8) renders with Helm 4.1"}
	if got := HelmFor(ControllerFlux, nil, nil, recorded); got.Version != Helm41 || !got.PostRenders || got.Why != "as the snapshot recorded at the deploy: "+recorded.Why {
		t.Errorf("recorded: %+v", got)
	}
	if got := HelmFor(ControllerFlux, nil, func(string) string { return "v1.6.0" }, recorded); got.Version != Helm42 {
		t.Errorf("the cluster's version over the record: %+v", got)
	}
	set, _ := SetHelm("3", "target prod")
	if got := HelmFor(ControllerFlux, &set, nil, recorded); got.Version != Helm3 {
		t.Errorf("the config's over the record: %+v", got)
	}
	if got := HelmFor(ControllerFlux, nil, nil, nil); got.Version != Helm4Newest {
		t.Errorf("no record: %+v", got)
	}
}
