// Package render turns the paths of a deploy (kustomization directories,
// directories of YAML files, YAML files) into the objects the deploy
// applies: with their identity, the namespace kubectl would give them, the
// repository config's ignored fields removed, and the file each came from.
//
// Each path is rendered by a Source, chosen from a table (sourcetable.go):
// kustomize (kustomize.go, and kustscan.go for what a kustomization may
// reach) and plain YAML (yamlsource.go). A source gives the objects with
// the file and line they are written at, reads through a file system that
// records every file and directory read (Options.Reads, for the targets a
// change affects), and names what it cannot render and why (NotRendered),
// which is not an error but must not pass as checked. A new source (a
// GitOps tool's object, a chart) is a row of the table and the file that
// implements it; Render gives every source's objects identity, namespace
// and ignore rules alike.
//
// The manifests come from pull requests and are untrusted: see
// docs/trust-model.md for what they can and cannot make rendering do.
package render
