package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestMigrateBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"migrate", "x.yaml"}, "--field-manager: required"},
		{[]string{"migrate", "x.yaml", "--field-manager", "d", "--scope", "spec.template"}, `--scope: path "spec.template" must start with a field`},
		{[]string{"migrate", "x.yaml", "--field-manager", "d", "--scope", `.spec.template.spec.initContainers[name="a"`}, "--scope: "},
	} {
		var stdout, stderr bytes.Buffer
		if code := Run("test", tc.args, &stdout, &stderr); code != ExitError || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 saying %q", tc.args, code, stderr.String(), stdout.String(), tc.want)
		}
	}
}

// Only check has --offline: migrate's and snapshot's cluster errors must
// not suggest it, and check's must.
func TestNoClusterSuggestsOfflineOnlyForCheck(t *testing.T) {
	dir := t.TempDir()
	kubeconfig := dir + "/missing-kubeconfig"
	for _, tc := range []struct {
		args    []string
		offline bool
	}{
		{[]string{"migrate", dir, "--field-manager", "d", "--kubeconfig", kubeconfig}, false},
		{[]string{"snapshot", dir, "--field-manager", "d", "--kubeconfig", kubeconfig, "--snapshot-repo", dir}, false},
		{[]string{"check", dir, "--field-manager", "d", "--kubeconfig", kubeconfig, "--snapshot-repo", dir}, true},
	} {
		var stdout, stderr bytes.Buffer
		code := Run("test", tc.args, &stdout, &stderr)
		if code != ExitError || !strings.Contains(stderr.String(), "kubeconfig") || strings.Contains(stderr.String(), "--offline") != tc.offline {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 about the kubeconfig, suggesting --offline: %v", tc.args[0], code, stderr.String(), tc.offline)
		}
	}
}
