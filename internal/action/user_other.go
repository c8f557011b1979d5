//go:build !linux

package action

// dropToWorkspaceOwner: the action's container is Linux; elsewhere there is
// nothing to drop.
func dropToWorkspaceOwner(string) error { return nil }
