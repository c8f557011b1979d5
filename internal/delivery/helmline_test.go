package delivery

import "testing"

// TestHelmOf: each deployer renders with its own Helm (docs/helm.md
// "Which Helm renders").
func TestHelmOf(t *testing.T) {
	for _, tc := range []struct {
		controller, version, want string
	}{
		{ControllerFlux, "v1.4.0", Helm3},
		{ControllerFlux, "v1.4.3", Helm3},
		{ControllerFlux, "v0.37.4", Helm3},
		{ControllerFlux, "v1.5.0", Helm41},
		{ControllerFlux, "v1.5.2", Helm41},
		{ControllerFlux, "v1.6.0", Helm42},
		{ControllerFlux, "v1.6.2", Helm42},
		{ControllerFlux, "v1.6.3", Helm424},
		{ControllerFlux, "v1.6.10", Helm424},
		{ControllerFlux, "v1.7.0", Helm424},
		{ControllerFlux, "", Helm4Newest},
		{ControllerFlux, "latest", Helm4Newest},
		{ControllerArgoCD, "v3.4.9", Helm3},
		{ControllerArgoCD, "v2.14.0", Helm3},
		{ControllerArgoCD, "v3.5.0", Helm42},
		{ControllerArgoCD, "v3.6.1", Helm42},
		{ControllerArgoCD, "", Helm4Newest},
		{ControllerHelm, "", Helm4Newest},
		{"", "", Helm4Newest},
	} {
		got := HelmOf(tc.controller, tc.version)
		if got.Version != tc.want || got.Why == "" || got.PostRenders != (tc.controller == ControllerFlux) {
			t.Errorf("%s %s: %+v, want Helm %s", tc.controller, tc.version, got, tc.want)
		}
	}
}

// TestSetHelm: the config names a Helm release; anything else is refused
// with what to give.
func TestSetHelm(t *testing.T) {
	for in, want := range map[string]string{
		"3": Helm3, "3.18": Helm3, "v3.18.6": Helm3, "4": Helm4Newest, "4.0": Helm41, "4.1": Helm41,
		"4.1.1": Helm41, "4.2": Helm42, "v4.2.1": Helm42, "4.2.4": Helm424, "4.2.5": Helm424, "4.3": Helm4Newest, "4.4": Helm4Newest,
	} {
		got, err := SetHelm(in, "target prod")
		if err != nil || got.Version != want || got.Why != "set in the config (target prod)" {
			t.Errorf("%q: %+v %v, want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "2.17", "5.0", "four", "4.x"} {
		if _, err := SetHelm(in, "target prod"); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
