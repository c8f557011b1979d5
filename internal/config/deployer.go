package config

// DeployerOptions say what the deployer does beyond its apply, where that
// changes what the apply does. They hold for every target of the
// repository: a deployer's habits are the pipeline's, not a target's.
type DeployerOptions struct {
	// UpgradesClientSide says the deployer merges client-side managers
	// (kubectl-client-side-apply, its own Update entry) into its Apply
	// entry before its first server-side apply, as kubectl ≥ 1.26, Flux,
	// Argo CD 3 and Helm 4 do (client-go's csaupgrade). Nil means true.
	// False: their fields stay theirs, and a field the manifests stop
	// sending stays in the cluster (docs/deployers-apply.md).
	UpgradesClientSide *bool `json:"upgradesClientSide,omitempty"`
}

// UpgradesClientSideManagers is UpgradesClientSide with its default.
func (o DeployerOptions) UpgradesClientSideManagers() bool {
	return o.UpgradesClientSide == nil || *o.UpgradesClientSide
}

// UpgradesClientSide reads c's deployer.upgradesClientSide; true without a
// config.
func (c *Config) UpgradesClientSide() bool {
	if c == nil {
		return true
	}
	return c.Deployer.UpgradesClientSideManagers()
}
