package model

import (
	"fmt"
	"regexp"
	"strings"
)

var environmentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ValidateEnvironment checks that an environment (a target's name) can be
// a folder of the snapshot branch on every platform and a comment section.
// A discovered Flux target is named `<namespace>/<name>`: one '/' keeps
// the name as a subfolder, each side a name of its own.
func ValidateEnvironment(env string) error {
	segs := strings.Split(env, "/")
	bad := len(segs) > 2
	for _, s := range segs {
		bad = bad || !environmentName.MatchString(s) || strings.Contains(s, "..")
	}
	if bad {
		return fmt.Errorf("environment %q: use letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit), or two such names as namespace/name", env)
	}
	return nil
}
