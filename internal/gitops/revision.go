package gitops

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// fluxRefFields are a GitRepository's spec.ref fields in the order
// source-controller gives them precedence: a commit over everything, a
// ref name over a branch, a tag or a range, a range over a tag, a tag
// over a branch.
var fluxRefFields = []string{delivery.RevisionCommit, delivery.RevisionName, delivery.RevisionSemver, delivery.RevisionTag, delivery.RevisionBranch}

// fluxRevision is the revision a GitRepository (ref, namespace/name)
// pins, nil when it names none: without spec.ref source-controller takes
// its default branch, which is taken to be the one the checkout is on,
// as bootstrap writes the branch it was run from.
func fluxRevision(gr document, ref string) (*delivery.Revision, error) {
	for _, f := range fluxRefFields {
		v, err := gr.str("spec", "ref", f)
		if err != nil {
			return nil, err
		}
		if v != "" {
			return &delivery.Revision{Kind: f, Ref: v, Field: fmt.Sprintf("GitRepository %s spec.ref.%s", ref, f)}, nil
		}
	}
	return nil, nil
}

var (
	// hexCommit is a targetRevision Argo CD takes for a commit SHA.
	hexCommit = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	// semverRange holds what only a semver constraint has: Argo CD
	// resolves one against the repository's tags.
	semverRange = regexp.MustCompile(`[*^~<>=|, ]|\.[xX](\.|$)`)
)

// argoRevision is the revision an Argo CD source's targetRevision pins,
// nil for none: "" and HEAD are the repository's default branch, taken
// to be the one the checkout is on.
func argoRevision(rev, field string) *delivery.Revision {
	r := &delivery.Revision{Ref: rev, Field: field}
	switch {
	case rev == "" || rev == "HEAD":
		return nil
	case strings.HasPrefix(rev, "refs/"):
		r.Kind = delivery.RevisionName
	case hexCommit.MatchString(rev):
		r.Kind = delivery.RevisionCommit
	case semverRange.MatchString(rev):
		r.Kind = delivery.RevisionSemver
	default:
		// A branch or a tag: the repo-server asks the remote's refs for
		// either (a short SHA too, which resolving tells apart).
		r.Kind = delivery.RevisionRef
	}
	return r
}

// sameRevision says whether two sources of one Application pin the same
// revision (both none counts).
func sameRevision(a, b *delivery.Revision) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Ref == b.Ref
}

// argoPin records on t the revision a source of this repository with a
// path pins (Deployer.Revision), and says why not when another source of
// it (seen: one was read) pins a different one: one render reads one
// tree.
func argoPin(d document, t *Target, targetRevision string, seen *bool) string {
	r := argoRevision(targetRevision, fmt.Sprintf("Application %s targetRevision", d.name()))
	if *seen && !sameRevision(t.Deployer.Revision, r) {
		return fmt.Sprintf("its sources of this repository pin different revisions (%s, %s): one render reads one tree", or(t.Deployer.Revision.String(), "HEAD"), or(r.String(), "HEAD"))
	}
	*seen, t.Deployer.Revision = true, r
	return ""
}
