package model

import (
	"fmt"
	"regexp"
	"strings"
)

var environmentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// ValidateEnvironment checks that an environment (a target's name) can be
// a folder of the snapshot branch on every platform and a comment section.
func ValidateEnvironment(env string) error {
	if !environmentName.MatchString(env) || strings.Contains(env, "..") {
		return fmt.Errorf("environment %q: use letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit)", env)
	}
	return nil
}
