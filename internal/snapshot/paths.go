package snapshot

import (
	"fmt"
	"path"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

const (
	indexFile  = "index.json"
	objectsDir = "objects"
	// Neither is a valid API group or namespace name (no '_' allowed), so
	// they cannot collide with real ones.
	coreGroup    = "_core"
	clusterScope = "_cluster"
)

// ValidateEnvironment checks that an environment name can be a folder of the
// branch on every platform (model.ValidateEnvironment).
func ValidateEnvironment(env string) error { return model.ValidateEnvironment(env) }

// ObjectPath is the file of an object, relative to its environment's folder.
func ObjectPath(id model.ID) string {
	group, ns := id.Group, id.Namespace
	if group == "" {
		group = coreGroup
	}
	if ns == "" {
		ns = clusterScope
	}
	return path.Join(objectsDir, escape(group), escape(id.Kind), escape(ns), escape(id.Name)+".json")
}

// escape keeps a path segment portable. Kubernetes names may hold ':' (RBAC)
// and other characters some filesystems refuse, but never '%', so
// percent-encoding is unambiguous.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' && i > 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
