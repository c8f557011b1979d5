package cli

import (
	"os"
	"os/user"
)

// sourceCommit is the --source-commit flag, else the workflow's commit;
// "" leaves it to check (the working directory's HEAD).
func sourceCommit(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv("GITHUB_SHA")
}

// deployedBy names who deploys for the snapshot's index: the workflow's
// actor, else the user running the tool.
func deployedBy() string {
	for _, v := range []string{"GITHUB_ACTOR", "USER"} {
		if s := os.Getenv(v); s != "" {
			return s
		}
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
