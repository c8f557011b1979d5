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
// which is not an error but must not pass as checked.
//
// A render for a GitOps controller's object (Options.Deployer) goes
// through that controller's row. Flux's (flux.go) renders a Kustomization's
// spec.path as kustomize-controller does, with Flux's own library
// (github.com/fluxcd/pkg/kustomize): its generator writes the
// kustomization the controller builds (targetNamespace, namePrefix,
// nameSuffix, patches, images, components; one listing the folder's
// manifests where it has none, leaving out what source-controller leaves
// out of the artifact: .sourceignore and its default exclusions such as
// .sops.yaml; and no file the artifact lacks is read at all, spec.ignore
// of its GitRepository included: fluxartifact.go) into a temporary copy of
// what it reads,
// which this render then reads in place of the folder's own
// (fluxgen.go; the repository is never written); kustomize builds it with
// the controller's settings (builtin plugins only, files anywhere in the
// repository, remote bases only as the repository config allows); the
// library's SubstituteVariables runs on each object with the values of
// postBuild.substitute and substituteFrom, read from the ConfigMaps and
// Secrets of the render that made the Kustomization
// (delivery.Deployer.RenderedValues, fluxrendered.go), else through
// Options.Values (fluxsubst.go); then what the controller does at apply (fluxapply.go):
// its owner labels kustomize.toolkit.fluxcd.io/name and /namespace,
// fluxcd/pkg/ssa's normalization, commonMetadata, and its annotations:
// ssa: Ignore and reconcile: disabled leave the object out (NotRendered,
// with the reason), ssa: IfNotPresent is a note on the object; a
// namespaced object left without a namespace is an error, as the
// controller refuses the whole Kustomization for it. Values
// taken from a Secret go on every object substituted with them
// (model.Object.HiddenValues): a check hides them wherever they are,
// and Encode prints them only with ShowSecrets. Not rendered, with the
// reason: a substituteFrom source that exists nowhere (and is not
// optional), a remote base the repository config does not allow, and
// each SOPS-encrypted Secret (its top-level sops stanza): it is never
// decrypted here, so it is left out of the check with its keys named
// ("encrypted: values not checked") rather than sent with values that
// would always differ from the cluster's.
//
// A new source (a
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
// manifests skipped; its .jsonnet files evaluated with go-jsonnet, as the
// repo server does, their imports read through the guarded file system:
// argojsonnet.go); a kustomization's helmCharts rendered in process when
// the installation's kustomize.buildOptions enable Helm
// (delivery.ArgoKustomizeBuildOptionsKey, argobuildopts.go), else refused as
// Argo CD's kustomize refuses them; Lists taken apart, objects whose hook
// is Skip left out, the tracking annotation (argotrack.go; the label, or
// both, where the Application carries delivery.ArgoTrackingMethodKey), and
// the destination namespace for objects without one. Helm sources render
// through the one chart engine (argohelm.go). Plugin sources, and
// overrides that use the revision a sync resolves, are NotRendered with
// the reason.
//
// Charts render in process through render/helm's Engine (engine.go;
// Helm 3's SDK in helm3.go, the one file that imports Helm's packages;
// Options.HelmEngine picks another), one for every Helm form (helm.go:
// Release, RenderChart): the chart read through the recording file
// system (helmload.go), or one the chart locator fetched
// (Options.Charts: source.Chart, its archive loaded by the engine within
// its bounds, chartarchive.go), a dependency that is not vendored located as
// `helm dependency build` finds it (helmdeps.go), every chart released
// named in Result.Charts and Base.Charts (source.ChartPins); a target
// whose chart is fetched renders for the file of the object that names
// it (the HelmRelease, the Application: argochart.go, the config),
// .Capabilities and lookup as each deployer's render sees the
// cluster (helmcluster.go, Options.ChartCluster), hooks, crds/, the
// release namespace and Helm's metadata as the deployer applies them. The
// helm row renders the config's helm target as `helm upgrade` does
// (helmsource.go); a kustomization's helmCharts are rendered as `helm
// template` prints them and given to kustomize as a resource file in
// place of the entries, in memory (kusthelm.go), so that kustomize's own
// transformers apply to them. See docs/helm.md.
//
// The manifests come from pull requests and are untrusted: see
// docs/trust-model.md for what they can and cannot make rendering do.
package render
