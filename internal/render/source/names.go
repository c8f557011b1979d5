package source

import (
	"path/filepath"
	"slices"
	"strings"
)

// IsKustomizationName: the file names kustomize reads as a kustomization.
func IsKustomizationName(name string) bool {
	return slices.Contains([]string{"kustomization.yaml", "kustomization.yml", "Kustomization"}, name)
}

// IsManifestName: the files a directory of plain YAML is read from.
func IsManifestName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// Or is v, or otherwise when v is empty.
func Or(v, otherwise string) string {
	if v != "" {
		return v
	}
	return otherwise
}
