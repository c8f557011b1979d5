package action

import "fmt"

// actionUserEnv says who `ownership-check action` runs as. Only the
// container image sets it (to workspace-owner): GitHub starts a container
// action as root, so the image drops to the workspace's owner. The composite
// action runs on the runner as the runner's own user and never switches: a
// runner that runs as root keeps root, and with it the files (KUBECONFIG,
// ~/.kube, the outputs) that earlier steps wrote as root.
const actionUserEnv = "OWNERSHIP_CHECK_ACTION_USER"

func switchActionUser(getenv func(string) string) error {
	switch v := getenv(actionUserEnv); v {
	case "":
		return nil
	case "workspace-owner":
		return dropToWorkspaceOwner(getenv("GITHUB_WORKSPACE"))
	default:
		return fmt.Errorf("%s=%q: the only value is workspace-owner (unset: run as the current user)", actionUserEnv, v)
	}
}
