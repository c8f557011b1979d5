package config

import (
	"fmt"
	"path"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// IgnoreRule names fields the deploy does not manage, such as the
// .spec.replicas of Deployments an autoscaler scales. Ignored fields are
// removed from the rendered objects before anything else sees them: the
// deploy must not send them either.
type IgnoreRule struct {
	// Path in structured-merge-diff's string form; ".*" and "[*]" are
	// wildcards for every map key and every list item.
	Path string `json:"path"`
	// Group selects objects by API group: empty for any group, "core" for
	// the core group ("" in apiVersion v1).
	Group string `json:"group,omitempty"`
	// Kind selects objects by kind; empty for any kind.
	Kind string `json:"kind,omitempty"`
	// Namespace and Name select objects by shell pattern (path.Match:
	// "web-*"); empty for any.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	// Reason is for people: why the field is not the deploy's.
	Reason string `json:"reason,omitempty"`
}

// CoreGroup is how a rule selects the core API group.
const CoreGroup = "core"

// protected are the paths no rule may remove: without them an object has no
// identity and Server-Side Apply cannot address it.
var protected = []fieldpath.Path{
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
}

func (r IgnoreRule) validate() error {
	p, err := ParsePath(r.Path)
	if err != nil {
		return err
	}
	for _, fp := range protected {
		if p.Covers(fp) {
			return fmt.Errorf("path %q would remove %s, which identifies the object", r.Path, fp)
		}
	}
	for _, pattern := range []string{r.Namespace, r.Name} {
		if _, err := path.Match(pattern, ""); err != nil {
			return fmt.Errorf("bad pattern %q: %w", pattern, err)
		}
	}
	return nil
}

// Pattern gives the parsed path.
func (r IgnoreRule) Pattern() (Path, error) { return ParsePath(r.Path) }

// Selects tells whether the rule applies to an object.
func (r IgnoreRule) Selects(group, kind, namespace, name string) bool {
	switch r.Group {
	case "":
	case CoreGroup:
		if group != "" {
			return false
		}
	default:
		if r.Group != group {
			return false
		}
	}
	if r.Kind != "" && r.Kind != kind {
		return false
	}
	return globMatch(r.Namespace, namespace) && globMatch(r.Name, name)
}

func globMatch(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}

// IgnoredPaths gives the paths ignored in one object. Rules that do not
// parse are skipped: Validate reports them.
func (c *Config) IgnoredPaths(group, kind, namespace, name string) []Path {
	if c == nil {
		return nil
	}
	var out []Path
	for _, r := range c.Ignore {
		if !r.Selects(group, kind, namespace, name) {
			continue
		}
		if p, err := r.Pattern(); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// IsIgnored tells whether a field path of an object is at or below an
// ignored path: the deploy does not send it.
func (c *Config) IsIgnored(group, kind, namespace, name string, fp fieldpath.Path) bool {
	for _, p := range c.IgnoredPaths(group, kind, namespace, name) {
		if p.Covers(fp) {
			return true
		}
	}
	return false
}

// Redacts tells whether a redact.paths rule hides the value at fp of an
// object: fp is at or below a path a rule selects. (A value above, such
// as a whole container, is judged by what it holds: model.Redaction.)
func (c *Config) Redacts(group, kind, namespace, name string, fp fieldpath.Path) bool {
	if c == nil {
		return false
	}
	for _, r := range c.Redact.Paths {
		if !r.Selects(group, kind, namespace, name) {
			continue
		}
		if p, err := r.Pattern(); err == nil && p.Covers(fp) {
			return true
		}
	}
	return false
}
