package gitexec

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
)

// RefSet is a repository's branches and tags as a GitOps controller
// sees them: the remote's (what the controller fetches), else the
// checkout's own refs.
type RefSet struct {
	// Refs are full ref names (refs/heads/x, refs/tags/y) and the commit
	// each names, an annotated tag peeled to its commit.
	Refs map[string]string
	// Default is the default branch's name (what the remote's HEAD names),
	// "" when unknown.
	Default string
	// Remote is the remote they were read from, "" for the local refs.
	Remote string
}

// RemoteRefs reads the branches and tags of remote, as a GitOps
// controller fetching it sees them (one `ls-remote`).
func RemoteRefs(ctx context.Context, top, remote string) (RefSet, error) {
	out, err := Run(ctx, Where{Dir: top}, nil, "ls-remote", "--symref", remote, "HEAD", "refs/heads/*", "refs/tags/*")
	if err != nil {
		return RefSet{}, err
	}
	return parseLsRemote(out, remote), nil
}

func parseLsRemote(out []byte, remote string) RefSet {
	rs := RefSet{Refs: map[string]string{}, Remote: remote}
	for _, l := range strings.Split(string(out), "\n") {
		oid, ref, ok := strings.Cut(l, "\t")
		if !ok {
			continue
		}
		if target, isSym := strings.CutPrefix(oid, "ref: "); isSym {
			if ref == "HEAD" {
				rs.Default = strings.TrimPrefix(target, "refs/heads/")
			}
			continue
		}
		if peeled, ok := strings.CutSuffix(ref, "^{}"); ok {
			rs.Refs[peeled] = oid // the commit an annotated tag names
			continue
		}
		if _, seen := rs.Refs[ref]; !seen {
			rs.Refs[ref] = oid
		}
	}
	return rs
}

// LocalRefs reads the repository's own branches, tags and
// remote-tracking branches of remote (as the branches they track, over
// a local branch of the same name): what the checkout knows without the
// network. Its Remote is "".
func LocalRefs(ctx context.Context, top, remote string) (RefSet, error) {
	rs := RefSet{Refs: map[string]string{}}
	out, err := Run(ctx, Where{Dir: top}, nil, "for-each-ref", "--format=%(refname)%00%(objectname)%00%(*objectname)", "refs/heads", "refs/tags", "refs/remotes")
	if err != nil {
		return rs, err
	}
	tracking := "refs/remotes/" + or(remote, "origin") + "/"
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(l, "\x00")
		if len(f) != 3 {
			continue
		}
		ref, oid := f[0], or(f[2], f[1])
		switch {
		case strings.HasPrefix(ref, tracking):
			// What the remote had when last fetched: over a local branch
			// of the same name, which may lag it.
			if b := strings.TrimPrefix(ref, tracking); b != "HEAD" {
				rs.Refs["refs/heads/"+b] = oid
			}
		case strings.HasPrefix(ref, "refs/heads/"):
			if _, seen := rs.Refs[ref]; !seen {
				rs.Refs[ref] = oid
			}
		case strings.HasPrefix(ref, "refs/tags/"):
			rs.Refs[ref] = oid
		}
	}
	if d, err := line(ctx, top, "symbolic-ref", "--quiet", tracking+"HEAD"); err == nil {
		rs.Default = strings.TrimPrefix(d, tracking)
	}
	return rs, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Resolve is the commit a revision names among the refs, as the
// controller resolves it: kind is "branch", "tag", "semver" (the highest
// tag in the range, as source-controller picks it), "name" (a full ref),
// "ref" (a branch, else a tag, else 7 to 39 hex digits the commit of one
// begins with, as Argo CD's repo-server tries them: a *ShortCommitError
// when none does) or "commit" (itself). A revision they do not name is an error saying so.
func (rs RefSet) Resolve(kind, ref string) (string, error) {
	from := "the remote " + rs.Remote
	if rs.Remote == "" {
		from = "this repository's refs"
	}
	try := func(names ...string) (string, error) {
		for _, n := range names {
			if c, ok := rs.Refs[n]; ok {
				return c, nil
			}
		}
		return "", fmt.Errorf("%s %s: not in %s", kind, ref, from)
	}
	switch kind {
	case "commit":
		return ref, nil
	case "branch":
		return try("refs/heads/" + ref)
	case "tag":
		return try("refs/tags/" + ref)
	case "name":
		return try(ref)
	case "ref":
		c, err := try("refs/heads/"+ref, "refs/tags/"+ref)
		if err != nil && IsShortCommit(ref) {
			if c, ok := rs.tipBeginning(ref); ok {
				return c, nil
			}
			return "", &ShortCommitError{Ref: ref, From: from}
		}
		return c, err
	case "semver":
		return rs.highestTag(ref, from)
	}
	return "", fmt.Errorf("revision kind %q: not one of branch, tag, semver, name, ref, commit", kind)
}

// shortCommit is what Argo CD's repo-server takes for a commit SHA cut
// short when no branch or tag has the name: 7 to 39 hex digits.
var shortCommit = regexp.MustCompile(`^[0-9a-fA-F]{7,39}$`)

// IsShortCommit says whether rev may be a commit SHA cut short.
func IsShortCommit(rev string) bool { return shortCommit.MatchString(rev) }

// ShortCommitError is a revision no branch or tag names that may be the
// beginning of a commit the refs do not name (CommitBeginning finds it
// in a repository's objects).
type ShortCommitError struct{ Ref, From string }

func (e *ShortCommitError) Error() string {
	return fmt.Sprintf("%s: no branch or tag of %s has that name, nor does the commit of one begin with it", e.Ref, e.From)
}

// tipBeginning is the one commit a ref names that begins with prefix.
func (rs RefSet) tipBeginning(prefix string) (string, bool) {
	prefix = strings.ToLower(prefix)
	found := ""
	for _, oid := range rs.Refs {
		if strings.HasPrefix(oid, prefix) {
			if found != "" && found != oid {
				return "", false
			}
			found = oid
		}
	}
	return found, found != ""
}

// CommitBeginning is the one commit of the repository at top whose SHA
// begins with prefix, as git checks out a commit cut short: an error
// when it has none (a shallow checkout has only its own commits) or
// more than one.
func CommitBeginning(ctx context.Context, top, prefix string) (string, error) {
	c, err := CommitOf(ctx, top, strings.ToLower(prefix))
	if err != nil || c == "" {
		return "", fmt.Errorf("no commit of this checkout begins with %s, or more than one does", prefix)
	}
	return c, nil
}

// highestTag is the commit of the highest tag that is a version in the
// range constraint; tags that are no version are passed over.
func (rs RefSet) highestTag(constraint, from string) (string, error) {
	c, err := semver.NewConstraint(constraint)
	if err != nil {
		return "", fmt.Errorf("semver %s: not a version range: %v", constraint, err)
	}
	var best *semver.Version
	var commit string
	for ref, oid := range rs.Refs {
		tag, ok := strings.CutPrefix(ref, "refs/tags/")
		if !ok {
			continue
		}
		v, err := semver.NewVersion(tag)
		if err != nil || !c.Check(v) {
			continue
		}
		if best == nil || v.GreaterThan(best) || v.Equal(best) && oid < commit {
			best, commit = v, oid
		}
	}
	if best == nil {
		return "", fmt.Errorf("semver %s: no tag of %s is in the range", constraint, from)
	}
	return commit, nil
}

// BranchesAt are the branches whose tip is one of commits, sorted.
func (rs RefSet) BranchesAt(commits ...string) []string {
	var out []string
	for ref, oid := range rs.Refs {
		if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok && slices.Contains(commits, oid) {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return out
}

// HeadAndParents are the commit HEAD names and the parents its commit
// object lists: in a shallow checkout too, where the parents themselves
// are absent (a pull request's merge commit names the base branch's tip
// first).
func HeadAndParents(ctx context.Context, top string) ([]string, error) {
	head, err := Head(ctx, top)
	if err != nil {
		return nil, err
	}
	body, err := Run(ctx, Where{Dir: top}, nil, "cat-file", "commit", head)
	if err != nil {
		return nil, err
	}
	out := []string{head}
	header, _, _ := bytes.Cut(body, []byte("\n\n"))
	for _, l := range strings.Split(string(header), "\n") {
		if p, ok := strings.CutPrefix(l, "parent "); ok {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out, nil
}

// CurrentBranch is the branch HEAD is on, "" when detached.
func CurrentBranch(ctx context.Context, top string) string {
	b, err := line(ctx, top, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return b
}

// EnsureCommit makes commit readable in the repository holding dir:
// present already, or fetched alone from remote (a depth-1 checkout of a
// pull request's merge commit lacks its base; a branch may never have been
// fetched). Only a full commit id is fetched, a name is never sent to a
// remote, and the fetch is bounded: a hung remote must not hang the check.
func EnsureCommit(ctx context.Context, dir, remote, commit string) error {
	if HasCommit(ctx, dir, commit) {
		return nil
	}
	if !IsCommitID(commit) {
		return fmt.Errorf("revision %q is not in the repository (a full commit id is fetched from the remote when missing)", commit)
	}
	if remote == "" {
		return fmt.Errorf("commit %s: not in this repository, and it has no remote to fetch it from", commit)
	}
	fctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	if err := FetchCommit(fctx, dir, remote, commit); err != nil {
		return fmt.Errorf("commit %s is not in the checkout and fetching it failed (from %s): %w", commit, remote, err)
	}
	return nil
}

// fetchTimeout bounds fetching one commit: it is one small pack.
const fetchTimeout = 2 * time.Minute

var commitID = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// IsCommitID says whether s is a full commit id (SHA-1 or SHA-256).
func IsCommitID(s string) bool { return commitID.MatchString(s) }
