package check

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
)

// loadConfigFile is the repository config the pipeline runs with, and a note
// for the report when a pull request changes it.
//
// With a BaseConfig (the pull request's base commit's) the pull request's
// own copy at t.Config is read only to say what it changes: its ignore
// rules and kustomize permissions take effect after merge, never in the
// check of the pull request that adds them.
func (t Target) loadConfigFile() (*config.Config, string, error) {
	if t.BaseConfig == nil {
		cfg, err := config.Load(t.Config)
		return cfg, "", err
	}
	name := t.Config
	if name == "" {
		name = config.DefaultFile
	}
	head, err := config.Load(t.Config)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if t.BaseConfig.File == "" {
			return nil, "", fmt.Errorf("config %s: in neither the pull request nor its base commit", name)
		}
		head = nil
	case err != nil:
		return t.BaseConfig, fmt.Sprintf("%s's repository config %s does not load, and would fail every check after merge: %s (this check used the base commit's)", t.changedBy(), name, oneLine(err.Error())), nil
	case head.File == "":
		head = nil // no file: the defaults
	}
	var base *config.Config
	if t.BaseConfig.File != "" {
		base = t.BaseConfig
	}
	changes := config.Changes(base, head)
	if len(changes) == 0 {
		return t.BaseConfig, "", nil
	}
	return t.BaseConfig, fmt.Sprintf("%s changes the repository config %s, effective after merge (this check used the base commit's): %s", t.changedBy(), name, strings.Join(changes, "; ")), nil
}

func (t Target) changedBy() string {
	if t.ChangedBy == "" {
		return "this pull request"
	}
	return t.ChangedBy
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
