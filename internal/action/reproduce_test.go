package action

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
)

// TestReproduce: each section ends with the command that runs its check
// locally: a target by its name, an environment by its paths, words a
// shell would split quoted.
func TestReproduce(t *testing.T) {
	run := &actionRun{in: ghaction.Inputs{Paths: []string{"deploy/my app"}, FieldManager: "deployer", Environment: "prod", Config: "ci/oc.yaml"}}
	o := check.Options{Base: "f95f852", Offline: true}
	if got, want := run.reproduce(o, false)("prod"), "ownership-check check 'deploy/my app' --environment prod --field-manager deployer --config ci/oc.yaml --base f95f852 --offline"; got != want {
		t.Errorf("environment:\n%s\nwant\n%s", got, want)
	}
	if got, want := run.reproduce(o, true)("flux-system/apps"), "ownership-check check --target flux-system/apps --field-manager deployer --config ci/oc.yaml --base f95f852 --offline"; got != want {
		t.Errorf("target:\n%s\nwant\n%s", got, want)
	}
}
