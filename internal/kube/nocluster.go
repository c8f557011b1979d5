package kube

// NoClusterError is a kubeconfig that does not load or an API server that
// does not answer. Its words suggest only what every command has; a
// command that can run without a cluster (check --offline) adds that.
type NoClusterError struct{ Err error }

func (e *NoClusterError) Error() string { return e.Err.Error() }
func (e *NoClusterError) Unwrap() error { return e.Err }
