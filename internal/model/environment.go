package model

import (
	"fmt"
	"regexp"
	"strings"
)

// maxEnvironmentDepth is how many '/'-separated names an environment has
// at most: cluster/namespace/name.
const maxEnvironmentDepth = 3

var environmentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ValidateEnvironment checks that an environment (a target's name) can be
// a folder of the snapshot branch on every platform and a comment section.
// A discovered Flux target is named `<namespace>/<name>`, and
// `<cluster>/<namespace>/<name>` where two clusters' folders have the same
// one (every cluster's flux-system/flux-system): each '/' keeps the name
// as a subfolder, each segment a name of its own.
func ValidateEnvironment(env string) error {
	segs := strings.Split(env, "/")
	bad := len(segs) > maxEnvironmentDepth
	for _, s := range segs {
		bad = bad || !environmentName.MatchString(s) || strings.Contains(s, "..")
	}
	if bad {
		return fmt.Errorf("environment %q: use letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit), or up to three such names as namespace/name or cluster/namespace/name", env)
	}
	return nil
}
