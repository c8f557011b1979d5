package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionConfigRef: a pull request's check runs with the base commit's
// repository config, read through the API when the checkout has no git
// history; config-ref: head opts out; a base config that does not load
// stops the check.
func TestActionConfigRef(t *testing.T) {
	e := newActionEnv(t, "pull_request.synchronize.json", cleanActionReport(), nil)
	e.srv.SetFile(baseSHA, ".ownership-check.yaml", []byte("ignore:\n- path: .spec.replicas\n  kind: Deployment\n"))
	if err := os.WriteFile(".ownership-check.yaml", []byte("ignore:\n- path: .spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, log := e.run(); code != ExitOK || !strings.Contains(log, "reading .ownership-check.yaml through the GitHub API") {
		t.Fatalf("exit %d", code)
	}
	base := e.opts[0].BaseConfig
	if base == nil || len(base.Ignore) != 1 || base.Ignore[0].Path != ".spec.replicas" || !strings.Contains(base.File, "base commit f95f852bd8fc") {
		t.Fatalf("base config %+v", base)
	}

	t.Setenv("INPUT_CONFIG-REF", "head")
	if code, _ := e.run(); code != ExitOK || e.opts[1].BaseConfig != nil {
		t.Errorf("config-ref: head: exit %d, base config %+v", code, e.opts[1].BaseConfig)
	}

	t.Setenv("INPUT_CONFIG-REF", "base")
	t.Setenv("INPUT_CONFIG", "ci/ownership.yaml")
	if code, _ := e.run(); code != ExitOK || e.opts[2].BaseConfig == nil || e.opts[2].BaseConfig.File != "" {
		t.Errorf("a config file the base commit lacks: exit %d, want the defaults, got %+v", code, e.opts[2].BaseConfig)
	}

	e.srv.SetFile(baseSHA, "ci/ownership.yaml", []byte("kustomize: {allowExec: true}\n"))
	code, log := e.run()
	if code != ExitError || !strings.Contains(log, "ci/ownership.yaml (base commit f95f852bd8fc)") || len(e.opts) != 3 {
		t.Errorf("a base config that does not load: exit %d, checks run %d", code, len(e.opts))
	}

	t.Setenv("INPUT_CONFIG-REF", "merge")
	if code, log := e.run(); code != ExitError || !strings.Contains(log, `input config-ref: "merge" is not one of base, head`) {
		t.Errorf("a bad config-ref: exit %d", code)
	}
}

// TestActionConfigRefMergeGroup: a merge queue runs the required check on
// a commit that holds the queued pull requests' changes, config included:
// the config comes from the commit the group goes onto.
func TestActionConfigRefMergeGroup(t *testing.T) {
	const queueBase = "6113728f27ae82c7b1a177c8d03f9e96e0adf246" // testdata/github/merge_group.json
	e := newActionEnv(t, "merge_group.json", cleanActionReport(), nil)
	e.srv.SetFile(queueBase, ".ownership-check.yaml", []byte("ignore:\n- path: .spec.replicas\n  kind: Deployment\n"))
	if err := os.WriteFile(".ownership-check.yaml", []byte("ignore:\n- path: .spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, log := e.run()
	if code != ExitOK || !strings.Contains(log, "as the base commit 6113728f27ae of the merge group has it") {
		t.Fatalf("exit %d", code)
	}
	if base := e.opts[0].BaseConfig; base == nil || len(base.Ignore) != 1 || base.Ignore[0].Path != ".spec.replicas" {
		t.Fatalf("base config %+v", base)
	}
	if e.opts[0].ChangedBy != "the merge group" {
		t.Errorf("the config change would be credited to %q", e.opts[0].ChangedBy)
	}
}

// TestActionConfigRefUnreadable: neither git nor the API can read the base
// commit: exit 2 naming both, never the pull request's own config.
func TestActionConfigRefUnreadable(t *testing.T) {
	e := newActionEnv(t, "pull_request.synchronize.json", cleanActionReport(), nil)
	e.srv.Token = "another-token"
	code, log := e.run()
	if code != ExitError || len(e.opts) != 0 {
		t.Fatalf("exit %d, checks run %d", code, len(e.opts))
	}
	for _, want := range []string{"cannot read .ownership-check.yaml at the base commit", "from the checkout: .: not in a git repository", "through the GitHub API: reading .ownership-check.yaml at commit", "401 Bad credentials"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestActionOfflineAuto: offline only for a pull request from a fork;
// without credentials anything else is an error naming the input.
func TestActionOfflineAuto(t *testing.T) {
	for _, tc := range []struct {
		event   string
		code    int
		offline bool
	}{
		{"pull_request.fork.json", ExitOK, true},
		{"pull_request.synchronize.json", ExitError, false},
		{"push.json", ExitError, false},
	} {
		t.Run(tc.event, func(t *testing.T) {
			e := newActionEnv(t, tc.event, cleanActionReport(), nil)
			t.Setenv("KUBERNETES_SERVICE_HOST", "")
			t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
			code, log := e.run()
			if code != tc.code {
				t.Fatalf("exit %d, want %d", code, tc.code)
			}
			if tc.offline {
				if len(e.opts) != 1 || !e.opts[0].Offline || !strings.Contains(log, "a pull request from a fork gets no cluster credentials") {
					t.Errorf("not offline: %+v", e.opts)
				}
				return
			}
			if len(e.opts) != 0 || !strings.Contains(log, "::error::offline: auto: no cluster credentials") || !strings.Contains(log, "the kubeconfig input is empty") {
				t.Error("the error does not name the missing input")
			}
		})
	}
}
