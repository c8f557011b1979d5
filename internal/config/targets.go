package config

import (
	"fmt"
	"path"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Target is one deploy target of a monorepo: an environment (its snapshot
// folder and comment section), the paths its deploy renders, the manager
// it applies with, and the cluster (a kubeconfig context, or a kubeconfig
// file; neither: the run's own). It is read from the trusted config like
// the rest: a pull request cannot point its check at another cluster.
type Target struct {
	Name         string   `json:"name"`
	Paths        []string `json:"paths,omitempty"`
	FieldManager string   `json:"fieldManager,omitempty"`
	Context      string   `json:"context,omitempty"`
	Kubeconfig   string   `json:"kubeconfig,omitempty"`
	// Helm, in place of Paths, is a chart released by `helm upgrade`
	// (helm.go).
	Helm *HelmTarget `json:"helm,omitempty"`
	// Apply says how the target's deployer applies, where the default (a
	// forced Server-Side Apply, or what a helm target's Helm decides) is
	// not what it does (apply.go).
	Apply *ApplyConfig `json:"apply,omitempty"`
}

func (t Target) validate() error {
	if err := model.ValidateEnvironment(t.Name); err != nil {
		return fmt.Errorf("name: %w: it names the snapshot folder and the comment section", err)
	}
	if t.Apply != nil {
		if err := t.Apply.validate(); err != nil {
			return err
		}
	}
	if t.Helm != nil && t.Helm.versionOnly() {
		if err := validateHelmVersion(t.Helm.Version, "target "+t.Name); err != nil {
			return err
		}
	} else if t.Helm != nil {
		if len(t.Paths) > 0 {
			return fmt.Errorf("helm: target %s has paths too: a helm target renders its chart; give paths or helm, not both", t.Name)
		}
		return t.Helm.validate(t.Name)
	}
	if len(t.Paths) == 0 {
		return fmt.Errorf("paths: target %s has none: give the kustomizations or YAML directories its deploy renders", t.Name)
	}
	for i, p := range t.Paths {
		if err := repositoryPath(p); err != nil {
			return fmt.Errorf("paths[%d]: %q of target %s: %w", i, p, t.Name, err)
		}
	}
	return nil
}

// repositoryPath refuses a path that is not inside the repository.
func repositoryPath(p string) error {
	clean := path.Clean(p)
	if p == "" || path.IsAbs(clean) || repofs.Leaves(clean) {
		return fmt.Errorf("give a path inside the repository, relative to its top")
	}
	return nil
}

// TargetNamed returns the target called name.
func (c *Config) TargetNamed(name string) (Target, bool) {
	for _, t := range c.Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

func (c *Config) validateTargets() error {
	seen := map[string]bool{}
	for i, t := range c.Targets {
		if err := t.validate(); err != nil {
			// The error starts with the key it is about.
			return fmt.Errorf("targets[%d].%w", i, err)
		}
		if seen[t.Name] {
			return fmt.Errorf("targets[%d].name: %s: two targets of one name would share a snapshot and a comment section", i, t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}
