package check

import (
	"os"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestBaseConfigRules: with the base commit's config the pull request's
// own copy loosens nothing and is only described.
func TestBaseConfigRules(t *testing.T) {
	t.Chdir(t.TempDir())
	base, err := config.Parse(".ownership-check.yaml (base commit f95f852bd8fc)", []byte("ignore:\n- path: .metadata.labels\n"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(config.DefaultFile, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ignore:\n- path: .metadata.labels\n- path: .spec.replicas\n  kind: Deployment\nkustomize:\n  allowHelm: true\n")
	cfg, note, err := Target{RepoConfig: RepoConfig{BaseConfig: base}}.loadConfigFile()
	if err != nil || cfg != base {
		t.Fatalf("config %+v, err %v: want the base's", cfg, err)
	}
	want := "this pull request changes the repository config .ownership-check.yaml, effective after merge (this check used the base commit's): adds to ignore: path .spec.replicas, kind Deployment; turns on kustomize.allowHelm"
	if note != want {
		t.Errorf("note:\n%s\nwant:\n%s", note, want)
	}

	if _, note, _ := (Target{RepoConfig: RepoConfig{BaseConfig: base, ChangedBy: "the merge group"}}).loadConfigFile(); !strings.HasPrefix(note, "the merge group changes the repository config") {
		t.Errorf("in a merge queue: note %q", note)
	}

	write("ignore:\n- path: .metadata.labels\n")
	if _, note, _ := (Target{RepoConfig: RepoConfig{BaseConfig: base}}).loadConfigFile(); note != "" {
		t.Errorf("an unchanged config: note %q", note)
	}
	write("ignore: [{path: kind}]\n")
	if cfg, note, err := (Target{RepoConfig: RepoConfig{BaseConfig: base}}).loadConfigFile(); err != nil || cfg != base || !strings.Contains(note, "does not load") {
		t.Errorf("a broken config in the pull request: %v %q", err, note)
	}
	if _, _, err := (Target{RepoConfig: RepoConfig{BaseConfig: config.Default(), Config: "ci/x.yaml"}}).loadConfigFile(); err == nil || !strings.Contains(err.Error(), "in neither") {
		t.Errorf("an explicit config nowhere: %v", err)
	}
	os.Remove(config.DefaultFile)
	if _, note, _ := (Target{RepoConfig: RepoConfig{BaseConfig: base}}).loadConfigFile(); !strings.Contains(note, "removes from ignore: path .metadata.labels") {
		t.Errorf("a pull request that deletes the config: %q", note)
	}
}
