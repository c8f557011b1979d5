package history

import (
	"fmt"
	"path"
	"runtime"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Keep is how many deploys an environment's history keeps.
const Keep = 50

// Folder is where an environment's history lives on the snapshot branch.
func Folder(env string) string { return "_history/" + env }

// File is one file of an environment's history folder.
type File struct {
	Name string
	Data []byte
}

// Log is an environment's recorded deploys, oldest first.
type Log struct {
	Environment string
	// Branch and Commit are where the log was read; Commit is "" when the
	// branch does not exist yet.
	Branch, Commit string
	Deploys        []*Deploy
	// Unreadable are the files that could not be read (corrupt, or
	// written by a newer ownership-check), each error naming its file.
	// They are left out of Deploys.
	Unreadable []error
}

// NewLog decodes the files of env's history folder (in name order, as
// the store lists them), read at commit of branch. A file that cannot be
// read goes to Unreadable; the others are still read.
func NewLog(env, branch, commit string, files []File) *Log {
	l := &Log{Environment: env, Branch: branch, Commit: commit}
	deploys := make([]*Deploy, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), runtime.GOMAXPROCS(0), func(i int) {
		deploys[i], errs[i] = decode(env, files[i].Data)
	})
	for i, d := range deploys {
		file := path.Join(Folder(env), files[i].Name)
		if errs[i] != nil {
			l.Unreadable = append(l.Unreadable, fmt.Errorf("%s (snapshot branch %s at %.12s): %w", file, branch, commit, errs[i]))
			continue
		}
		d.File = file
		l.Deploys = append(l.Deploys, d)
	}
	return l
}

// Encode gives a deploy's file: its name (which sorts the deploys oldest
// first) and its content.
func Encode(d *Deploy) (File, error) {
	if d.RecordedAt.IsZero() {
		return File{}, fmt.Errorf("history of %s: a deploy without its time", d.Environment)
	}
	b, err := encode(d)
	if err != nil {
		return File{}, fmt.Errorf("history of %s: %w", d.Environment, err)
	}
	name, err := fileName(d)
	if err != nil {
		return File{}, err
	}
	return File{Name: name, Data: b}, nil
}
