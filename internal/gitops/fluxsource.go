package gitops

import (
	"fmt"
	"path"
	"strings"
)

// fluxArtifact applies what a target's GitRepository (ref,
// namespace/name) says about its artifact, which is all its controller
// reads: the revision spec.ref pins (Deployer.Revision), spec.ignore is written on the target's object for render (which
// then reads none of what it leaves out), and a path where spec.include
// puts another GitRepository's files is that repository's, not this one's.
func (s *discovery) fluxArtifact(t *Target, ref string, objs fluxObjects) error {
	gr, ok := objs.sources["GitRepository/"+ref]
	if !ok {
		return nil
	}
	rev, err := fluxRevision(gr, ref)
	if err != nil {
		return err
	}
	t.Deployer.Revision = rev
	ignore, err := gr.str("spec", "ignore")
	if err != nil {
		return err
	}
	if ignore != "" {
		t.Deployer.SourceIgnore = ignore
	}
	includes, err := gr.list("spec", "include")
	if err != nil {
		return err
	}
	for _, inc := range includes {
		repo, _ := inc["repository"].(map[string]any)
		name, _ := repo["name"].(string)
		to, _ := inc["toPath"].(string)
		if to == "" {
			to = name
		}
		to = strings.TrimPrefix(path.Clean("/"+to), "/")
		for _, p := range t.Paths {
			if p == to || strings.HasPrefix(p, to+"/") {
				t.Reason = or(t.Reason, fmt.Sprintf("path %s is where GitRepository %s includes GitRepository %s: another repository's files", p, ref, name))
			}
		}
	}
	return nil
}
