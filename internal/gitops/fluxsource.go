package gitops

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// fluxArtifact applies what a target's GitRepository (ref,
// namespace/name) says about its artifact, which is all its controller
// reads: spec.ignore is written on the target's object for render (which
// then reads none of what it leaves out), and a path where spec.include
// puts another GitRepository's files is that repository's, not this one's.
func (s *discovery) fluxArtifact(t *Target, ref string, objs fluxObjects) error {
	gr, ok := objs.gitRepositories["GitRepository/"+ref]
	if !ok {
		return nil
	}
	ignore, err := gr.str("spec", "ignore")
	if err != nil {
		return err
	}
	if ignore != "" {
		t.Deployer.Object = withAnnotation(t.Deployer.Object, model.FluxSourceIgnoreKey, ignore)
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

// withAnnotation is obj with one annotation more, on a copy.
func withAnnotation(obj map[string]any, key, value string) map[string]any {
	out := maps.Clone(obj)
	meta, _ := out["metadata"].(map[string]any)
	meta = maps.Clone(meta)
	if meta == nil {
		meta = map[string]any{}
	}
	anns, _ := meta["annotations"].(map[string]any)
	anns = maps.Clone(anns)
	if anns == nil {
		anns = map[string]any{}
	}
	anns[key] = value
	meta["annotations"] = anns
	out["metadata"] = meta
	return out
}
