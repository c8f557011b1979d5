// Package config reads the repository config, .ownership-check.yaml: ignore
// rules, and the kustomize features a pull request's manifests may use.
// The file is trusted (it is reviewed like the workflow that runs the tool);
// the manifests are not, so everything risky is off unless this file turns
// it on (docs/trust-model.md).
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// DefaultFile is read from the working directory when no --config is given.
const DefaultFile = ".ownership-check.yaml"

// Config is the repository config. The zero value is the secure default: no
// ignore rules, no risky kustomize feature.
type Config struct {
	Ignore    []IgnoreRule     `json:"ignore,omitempty"`
	Kustomize KustomizeOptions `json:"kustomize,omitempty"`
	Redact    RedactOptions    `json:"redact,omitempty"`
	Secrets   SecretsOptions   `json:"secrets,omitempty"`
	// Targets are a monorepo's deploy targets (targets.go).
	Targets []Target `json:"targets,omitempty"`
	// Discover names where the deployer's own objects make targets
	// (discover.go).
	Discover []Discover `json:"discover,omitempty"`
	// Repositories are more URLs that name this repository, beside its
	// origin remote's: a GitOps object whose source is one of them is
	// rendered from this checkout (docs/config.md, "repositories").
	Repositories []string `json:"repositories,omitempty"`
	// Snapshot tunes how snapshots are judged.
	Snapshot SnapshotOptions `json:"snapshot,omitempty"`
	// Deployer says what the deployer does beside its apply (deployer.go).
	Deployer DeployerOptions `json:"deployer,omitempty"`
	// Charts say where remote charts are fetched from (charts.go).
	Charts ChartsOptions `json:"charts,omitempty"`

	// File is where the config was read from; empty for the defaults.
	File string `json:"-"`
}

// KustomizeOptions enable kustomize features that let a kustomization reach
// beyond the repository checkout or run programs. All are off by default.
type KustomizeOptions struct {
	// AllowLoadOutsideRoot lets a kustomization read files (patches,
	// generator inputs, resource files) outside its own directory, still
	// within the working directory and the paths given on the command line.
	AllowLoadOutsideRoot bool `json:"allowLoadOutsideRoot,omitempty"`
	// AllowExecPlugins lets kustomize run exec plugins and KRM functions
	// (executables and containers) named by the manifests.
	AllowExecPlugins bool `json:"allowExecPlugins,omitempty"`
	// AllowHelm lets kustomize inflate helmCharts by running helm.
	AllowHelm bool `json:"allowHelm,omitempty"`
	// AllowRemote lets kustomize fetch remote bases, resources and files
	// (git repositories and http(s) URLs) and helm charts from repositories.
	AllowRemote bool `json:"allowRemote,omitempty"`
}

// RedactOptions hide more values than the default redaction rule, which
// hides env vars and ConfigMap keys with secret-like names (password,
// token, secret, key, credential: docs/trust-model.md). A hidden value is
// still compared; it is never shown.
type RedactOptions struct {
	// Names are more env var names and ConfigMap keys whose values are
	// hidden: shell patterns ("*_DSN"), matched against the whole name,
	// case-insensitively.
	Names []string `json:"names,omitempty"`
	// Paths are fields whose values are hidden, selected as ignore rules
	// select fields ("reason" is for people).
	Paths []IgnoreRule `json:"paths,omitempty"`
}

// SecretsOptions say what the check does with Secret objects.
type SecretsOptions struct {
	// Skip leaves Secrets unchecked: they are neither read nor dry-run,
	// and the report names them as not checked. For a checker whose role
	// may not read Secrets (deploy/rbac, the default); without it, such a
	// checker reports every Secret as a Forbidden dry-run-error, and the
	// check fails.
	Skip bool `json:"skip,omitempty"`
}

// SnapshotOptions tune how the last-deploy snapshot is judged.
type SnapshotOptions struct {
	// StaleAfterDays: a snapshot older than this is called stale in the
	// verdict; 0 is DefaultStaleAfterDays, negative never.
	StaleAfterDays int `json:"staleAfterDays,omitempty"`
}

// DefaultStaleAfterDays is when a snapshot no deploy has refreshed is
// called stale.
const DefaultStaleAfterDays = 30

// StaleAfter is the age past which a snapshot is stale; 0: never.
func (o SnapshotOptions) StaleAfter() time.Duration {
	switch {
	case o.StaleAfterDays < 0:
		return 0
	case o.StaleAfterDays == 0:
		return DefaultStaleAfterDays * 24 * time.Hour
	}
	return time.Duration(o.StaleAfterDays) * 24 * time.Hour
}

// StaleAfter is the config's age of a stale snapshot; the default's for
// a nil config.
func (c *Config) StaleAfter() time.Duration {
	if c == nil {
		return SnapshotOptions{}.StaleAfter()
	}
	return c.Snapshot.StaleAfter()
}

// Default is the config used when the repository has none.
func Default() *Config { return &Config{} }

// Load reads a config file. An empty path means DefaultFile in the working
// directory if it exists, else the defaults. Unknown fields, duplicate keys
// and invalid rules are errors naming the file.
func Load(path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultFile
	}
	data, err := readFile(path, explicit)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return Default(), nil
		}
		return nil, fmt.Errorf("config %w", err)
	}
	return Parse(path, data)
}

// Parse reads a config from bytes; file names it in errors.
func Parse(file string, data []byte) (*Config, error) {
	c := &Config{}
	if err := yaml.UnmarshalStrict(data, c); err != nil {
		return nil, fmt.Errorf("config %w", readError(file, data, err))
	}
	c.File = file
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config %w", validateError(file, data, err))
	}
	return c, nil
}

// Validate checks every rule; Load calls it, code that builds a Config by
// hand should too.
func (c *Config) Validate() error {
	if c == nil {
		return nil
	}
	for i, r := range c.Ignore {
		if err := r.validate(); err != nil {
			return fmt.Errorf("ignore[%d]: %w", i, err)
		}
	}
	for i, r := range c.Redact.Paths {
		if err := r.validate(); err != nil {
			return fmt.Errorf("redact.paths[%d]: %w", i, err)
		}
	}
	for i, n := range c.Redact.Names {
		if _, err := path.Match(n, ""); err != nil || n == "" {
			return fmt.Errorf("redact.names[%d]: bad pattern %q", i, n)
		}
	}
	for i, u := range c.Repositories {
		if strings.TrimSpace(u) == "" {
			return fmt.Errorf("repositories[%d]: give a URL of this repository", i)
		}
	}
	if err := c.Charts.validate(); err != nil {
		return err
	}
	if err := c.validateTargets(); err != nil {
		return err
	}
	return c.validateDiscover()
}
