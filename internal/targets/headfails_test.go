package targets

import "testing"

// TestHeadFails: only a reason the controller meets itself (a path it
// does not find, a chart version its source does not have) may make a
// target the pull request broke; a choice, a limit of this tool or this
// run's network never does.
func TestHeadFails(t *testing.T) {
	for reason, want := range map[string]bool{
		"path apps/missing: not in the repository": true,
		"chart podinfo 9.9.9 from HelmRepository flux-system/podinfo: https://stefanprodan.github.io/podinfo/index.yaml: no version matches 9.9.9 (latest 6.7.1)": true,
		"chart oci://ghcr.io/x/app: no tag matches 2.0.0 (latest 1.4.0)":                                                                                          true,
		"chart oci://ghcr.io/x/app:2.0.0: ghcr.io/x/app answered 404 Not Found: no such chart, version or repository":                                             true,
		"chart redis from HelmRepository flux-system/bitnami: host registry-1.docker.io not found (DNS): no such host":                                            false,
		"suspended": false,
		"source GitRepository flux-system/observability is https://github.com/example/observability.git: another repository": false,
		"path apps/plugin: a config management plugin renders it, which is not run here":                                     false,
	} {
		if got := pathMissing(reason) || chartMissing(reason); got != want {
			t.Errorf("%q: %v, want %v", reason, got, want)
		}
	}
}
