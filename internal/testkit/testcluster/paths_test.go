package testcluster

import "testing"

func TestKubeAPIServerNamePerVersion(t *testing.T) {
	for minor, want := range map[string]string{
		"":     "kube-apiserver",
		"1.33": "kube-apiserver",
		"1.37": "kube-apiserver-1.37",
	} {
		if got, err := kubeAPIServerName(minor); err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", minor, got, err, want)
		}
	}
	// A typo must not silently fall back to the pinned server.
	for _, bad := range []string{"v1.37", "1.37.2", "37", "../kubectl"} {
		if _, err := kubeAPIServerName(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
