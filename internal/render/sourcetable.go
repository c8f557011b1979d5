package render

import "path/filepath"

// sourceRow is one form of path: which paths it claims, and its source.
type sourceRow struct {
	name   string
	claims func(p Path) bool
	// source is made once per Render, before anything is read: a source
	// may widen what the file system lets it read (kustomize's remote
	// clones).
	source func(in *Input) Source
}

// sourceTable chooses each path's source: the first row that claims it.
// Plain YAML claims every path, so it comes last.
var sourceTable = []sourceRow{
	{name: "kustomize", claims: isKustomization, source: func(in *Input) Source { return newKustomizer(in.fs, in.cfg.Kustomize) }},
	{name: "YAML", claims: func(Path) bool { return true }, source: func(in *Input) Source { return &yamlSource{in: in} }},
}

// isKustomization: a kustomization's directory or its file.
func isKustomization(p Path) bool {
	if p.Dir {
		return kustomizationFile(p.Real) != ""
	}
	return isKustomizationName(filepath.Base(p.Abs))
}
