package gitops

import (
	"context"
	"regexp"
	"strings"
)

// leadsToWanted says whether t's render may make the target repo.Want
// names, or something on the way to it: always when nothing is wanted or
// t is it; else when a file under t's paths mentions the wanted object's
// name. Its children are read only then, so that `render --target` of
// one release of a fleet renders the Kustomizations above it and not its
// hundred siblings. A name made otherwise (a template, a substitution, a
// file outside the paths) is not found this way: the caller discovers the
// whole repository when the wanted target is not among what was found.
func (s *discovery) leadsToWanted(ctx context.Context, t *Target) (bool, error) {
	want := s.repo.Want
	if want == "" || t.Name == want || strings.HasSuffix(want, "/"+t.Name) {
		return true, nil
	}
	if s.wantRE == nil {
		s.wantRE = regexp.MustCompile(`\b` + regexp.QuoteMeta(wantedObject(want)) + `\b`)
	}
	return s.mentions(t.Paths, s.wantRE)
}

// wantedObject is the metadata.name of the object a target name names:
// `HelmRelease/<name>.<namespace>` (a namespace holds no '.'),
// `[<context>/]<namespace>/<name>`, or an Argo CD `[<context>/]<name>`.
func wantedObject(target string) string {
	if i := strings.LastIndex(target, "HelmRelease/"); i >= 0 {
		name := target[i+len("HelmRelease/"):]
		if dot := strings.LastIndexByte(name, '.'); dot > 0 {
			return name[:dot]
		}
		return name
	}
	return target[strings.LastIndexByte(target, '/')+1:]
}
