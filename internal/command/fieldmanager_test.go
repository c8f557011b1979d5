package command

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestRequireFieldManagers: discovered targets carry their controller's
// manager, so a discover-only run needs none; a config target without
// one needs the run's, and the error names it.
func TestRequireFieldManagers(t *testing.T) {
	discovered := targets.Selected{Target: targets.Target{Target: config.Target{Name: "flux-system/apps", FieldManager: "kustomize-controller"}, Source: "flux"}}
	notChecked := targets.Selected{Target: targets.Target{Target: config.Target{Name: "other"}, Reason: "suspended"}}
	listed := targets.Selected{Target: targets.Target{Target: config.Target{Name: "legacy"}, Source: targets.SourceConfig}}
	if err := RequireFieldManagers(targets.Selection{Targets: []targets.Selected{discovered, notChecked}}, ""); err != nil {
		t.Errorf("discover-only: %v", err)
	}
	err := RequireFieldManagers(targets.Selection{Targets: []targets.Selected{discovered, listed}}, "")
	if err == nil || !strings.Contains(err.Error(), "field-manager") || !strings.Contains(err.Error(), "legacy") || strings.Contains(err.Error(), "flux-system/apps") {
		t.Errorf("a listed target without a manager: %v", err)
	}
	if err := RequireFieldManagers(targets.Selection{Targets: []targets.Selected{discovered, listed}}, "deployer"); err != nil {
		t.Errorf("with the run's manager: %v", err)
	}
}
