// Package config reads the repository config, .ownership-check.yaml: ignore
// rules, and the kustomize features a pull request's manifests may use.
// The file is trusted (it is reviewed like the workflow that runs the tool);
// the manifests are not, so everything risky is off unless this file turns
// it on (docs/trust-model.md).
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"sigs.k8s.io/yaml"
)

// DefaultFile is read from the working directory when no --config is given.
const DefaultFile = ".ownership-check.yaml"

// maxFileSize bounds the config file: it is a few rules, never megabytes.
const maxFileSize = 1 << 20

// Config is the repository config. The zero value is the secure default: no
// ignore rules, no risky kustomize feature.
type Config struct {
	Ignore    []IgnoreRule     `json:"ignore,omitempty"`
	Kustomize KustomizeOptions `json:"kustomize,omitempty"`

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
	f, err := os.Open(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return Default(), nil
		}
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("config %s: larger than %d bytes", path, maxFileSize)
	}
	return Parse(path, data)
}

// Parse reads a config from bytes; file names it in errors.
func Parse(file string, data []byte) (*Config, error) {
	c := &Config{}
	if err := yaml.UnmarshalStrict(data, c); err != nil {
		return nil, fmt.Errorf("config %s: %w (see docs/trust-model.md for the fields)", file, err)
	}
	c.File = file
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", file, err)
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
	return nil
}
