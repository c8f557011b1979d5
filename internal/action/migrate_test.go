package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"

	"github.com/ownership-check/ownership-check/internal/migrate"
)

// stubMigrate replaces the migration with one that records its options and
// prints out, failing with err when set.
func stubMigrate(t *testing.T, out string, err error) *[]check.MigrateOptions {
	t.Helper()
	var seen []check.MigrateOptions
	old := migrateRunner
	t.Cleanup(func() { migrateRunner = old })
	migrateRunner = func(_ context.Context, o check.MigrateOptions, _ check.RunOptions, w io.Writer) (*migrate.Plan, error) {
		seen = append(seen, o)
		if _, statErr := os.Stat(o.Kubeconfig); o.Kubeconfig != "" && statErr != nil {
			t.Errorf("kubeconfig file %s missing while migrating", o.Kubeconfig)
		}
		fmt.Fprint(w, out)
		if err != nil {
			return nil, err
		}
		return &migrate.Plan{}, nil
	}
	return &seen
}

func TestActionMigrate(t *testing.T) {
	e := newActionEnv(t, "push.json", failingReport(), nil)
	t.Setenv("INPUT_MODE", "migrate")
	t.Setenv("INPUT_KUBECONFIG", "apiVersion: v1\nkind: Config\n")
	seen := stubMigrate(t, "migrated Deployment.apps/prod/web (resourceVersion 1 -> 2)\n", nil)
	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	if len(*seen) != 1 || !(*seen)[0].Apply || (*seen)[0].FieldManager != "deployer" || (*seen)[0].Kubeconfig == "" {
		t.Fatalf("options %+v: want --apply as deployer with the input's kubeconfig", *seen)
	}
	if _, err := os.Stat((*seen)[0].Kubeconfig); !os.IsNotExist(err) {
		t.Error("the kubeconfig file is left behind")
	}
	if !strings.Contains(log, "migrated Deployment.apps/prod/web") {
		t.Errorf("log lacks the outcome:\n%s", log)
	}
	summary, _ := os.ReadFile(e.summary)
	if !strings.Contains(string(summary), "ownership-check migrate: default") || !strings.Contains(string(summary), "migrated Deployment.apps/prod/web") {
		t.Errorf("summary:\n%s", summary)
	}
}

func TestActionMigrateFails(t *testing.T) {
	e := newActionEnv(t, "push.json", failingReport(), nil)
	t.Setenv("INPUT_MODE", "migrate")
	stubMigrate(t, "not migrated: x\n", errors.New("Deployment.apps/prod/web: the object changed since it was read"))
	code, log := e.run()
	if code != ExitError || !strings.Contains(log, "::error::Deployment.apps/prod/web: the object changed") {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	summary, _ := os.ReadFile(e.summary)
	if !strings.Contains(string(summary), "**Failed:**") {
		t.Errorf("summary:\n%s", summary)
	}
}
