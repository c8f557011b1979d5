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
// A render for a GitOps controller's object (Options.Deployer) goes
// through that controller's row. The argocd row (argocd.go) renders a
// path of an Argo CD Application as Argo CD 3 does: the path's source
// (spec.source, or the one of spec.sources with that path), merged with the
// .argocd-source*.yaml files beside it; a kustomize source built after
// Argo CD's kustomize edit commands for source.kustomize (argoedit.go: the
// edited kustomization lives in memory, in the file system of that one
// build; the repository is never written); a directory source as Argo CD
// reads one (argodir.go: recurse, include and exclude, files that are not
// manifests skipped); Lists taken apart, objects whose hook is Skip left
// out, the tracking annotation (argotrack.go; the label, or both, where
// the Application carries model.ArgoTrackingMethodKey), and the
// destination namespace for objects without one. Helm, plugin and jsonnet
// sources, and overrides that use the revision a sync resolves, are
// NotRendered with the reason.
//
// The manifests come from pull requests and are untrusted: see
// docs/trust-model.md for what they can and cannot make rendering do.
package render
