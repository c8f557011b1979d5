package repofs

// Limit is how many bytes a kind of file may have: each bound is far above
// what such a file holds, and below what a pull request could use to make
// the check read without end.
type Limit int64

const (
	// ConfigFile bounds the repository config, .ownership-check.yaml.
	ConfigFile Limit = 1 << 20
	// GitOpsFile bounds a YAML file discovery reads for the deployers'
	// objects, and for the ConfigMaps and Secrets beside them: Flux's own
	// install (gotk-components) is under a megabyte, a CRD bundle a few.
	GitOpsFile Limit = 16 << 20
	// ManifestFile bounds a file a render reads (manifests, kustomizations,
	// charts and their values files) and an ApplicationSet generator's
	// file.
	ManifestFile Limit = 8 << 20
)
