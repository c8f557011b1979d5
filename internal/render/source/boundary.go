package source

import (
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// NewBoundary is the set of directories rendering may read, through the
// one reader of repository files: the repository that holds the working
// directory (or the working directory itself outside a repository) and
// the paths given on the command line, which the person or workflow
// running the tool chose. Nothing a pull request writes can widen it.
func NewBoundary(cwd, root string, paths []string) (*repofs.FS, error) {
	if root == "" {
		root = repofs.RepositoryRoot(cwd)
	}
	return repofs.Open(cwd, append([]string{root}, paths...)...)
}
