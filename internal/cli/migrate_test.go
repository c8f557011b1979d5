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
