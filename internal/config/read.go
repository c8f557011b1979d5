package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// readFile reads the config file inside the repository that holds the
// working directory; a path the operator gave (--config) may also be
// outside it, in a directory of its own. A link from there out is not
// followed: the file in the repository is a pull request's to write.
func readFile(path string, explicit bool) ([]byte, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	roots := []string{repofs.RepositoryRoot(cwd)}
	if explicit {
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, path)
		}
		roots = append(roots, filepath.Dir(abs))
	}
	files, err := repofs.Open(cwd, roots...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer files.Close()
	return files.ReadFile(path, repofs.ConfigFile)
}
