package report

import (
	"regexp"
	"strings"
)

// reasonKinds name the kind of a reason a target is not checked for: the
// first row whose words the reason says, once the names in it are taken
// out (nameless), in this order. The coverage line counts reasons by
// kind, as the reasons themselves are sentences; a name (an OCIRepository
// called generic-device-plugin, a HelmRelease called hooks) is never a
// kind. The not-a-target reasons of objects listed under a target say
// their target's reason, and count as its kind.
var reasonKinds = []struct {
	kind  string
	words []string
}{
	{"suspended", []string{"suspended"}},
	{"other repository", []string{"another repository", "not a gitrepository of this repository", "chart from another git repository"}},
	{"unknown source", []string{"not known to be this repository", "is not in this repository, so where the chart comes from is unknown"}},
	{"other cluster", []string{"another cluster"}},
	{"no cluster", []string{"kubeconfig context", "no destination server or name"}},
	{"jsonnet", []string{"jsonnet"}},
	{"plugin", []string{"config management plugin", "plugin service", "exec plugin", "krm function"}},
	{"generator", []string{"scm provider", "decision resource", "clusters registered in argo cd", "clusters generator"}},
	{"hook", []string{"hook"}},
	// An object named after a Secret's value, which stands as a
	// placeholder in every render of a check and of discovery.
	{"secret name", []string{"name or namespace is made from secret"}},
	{"encrypted", []string{"sops"}},
	{"substitution", []string{"depends on", "postbuild substitutes"}},
	{"encrypted", []string{"encrypted"}},
	{"remote", []string{"remote base", "remote resource", "is remote", "never fetched"}},
	{"substitution", []string{"substitut"}},
	{"unvendored dependency", []string{"not vendored", "dependency"}},
	{"revision", []string{" pins ", "pin different revisions", "spec.ref.", "targetrevision"}},
	// A chart's host the run could not reach (or may not: an address only
	// the trusted config may list), and one that does not have the chart:
	// charts' words for each, which a check judges at the base by.
	{"chart host unreachable", []string{"the host is slow or unreachable", "refused the connection", "not found (dns)", "the runner's own network", "tls to "}},
	{"missing chart", []string{"no version matches ", "no tag matches ", "no such chart, version or repository", "the repository's index has no chart"}},
	{"chart", []string{"chart"}},
	// A path of the controller's object the repository does not have
	// (gitops' words; a chart's folder too): its controller fails on it.
	{"missing path", []string{"not in the repository"}},
	{"path", []string{"outside the repository", "not in the tree of"}},
	{"not reproduced", []string{"not reproduced", "cannot reproduce", "does not reproduce", "not run here", "does not fetch", "is not fetched", "not supported", "unsupported"}},
}

// failed marks a reason that says a render or a check failed (the head's,
// with the base's beside it; the render of the target an object listed
// under it is not made by): its kind is what failed, else "error".
var failed = []string{ReasonCouldNotCheck, "; and at the base: ", "; nor does the base ", ", does not render: "}

// ReasonKind is the kind of a reason a target is not checked: a word or
// two the coverage line counts by; "error" for a failure no row names,
// "other" for anything else. `targets --render` and `check` count by it
// alone, so that the same reason is the same kind in both.
func ReasonKind(reason string) string {
	low := " " + strings.ToLower(nameless(reason)) + " "
	for _, k := range reasonKinds {
		for _, w := range k.words {
			if strings.Contains(low, w) {
				return k.kind
			}
		}
	}
	for _, f := range failed {
		if strings.Contains(reason, f) {
			return "error"
		}
	}
	return "other"
}

var (
	// namedKinds are the words a reason names an object after: the word
	// that follows is its name.
	namedKinds = regexp.MustCompile(`\b(Kustomization|HelmRelease|Application|ApplicationSet|GitRepository|HelmRepository|OCIRepository|HelmChart|Bucket|ExternalArtifact|ArtifactGenerator|ConfigMap|Secret|[Cc]hart|[Tt]arget|[Pp]ath|[Ff]ile|[Hh]ost|[Rr]elease|[Dd]irectory|[Ss]ource) +("[^"]*"|'[^']*'|\S+)`)
	// quoted and pathLike are names written otherwise: a quoted string, a
	// path, a namespace/name, a URL, a file.
	quoted   = regexp.MustCompile(`"[^"]*"|'[^']*'|` + "`[^`]*`")
	pathLike = regexp.MustCompile(`\S*[/\\]\S*|\S+\.(ya?ml|json|tgz|tpl|jsonnet|libsonnet)\b`)
)

// nameless is a reason with the names in it taken out (each left as "_"),
// so that only its own words are read for its kind.
func nameless(reason string) string {
	s := quoted.ReplaceAllString(reason, "_")
	s = namedKinds.ReplaceAllStringFunc(s, func(m string) string {
		sub := namedKinds.FindStringSubmatch(m)
		if notAName[strings.ToLower(strings.TrimRight(sub[2], ",;:.()"))] {
			return m
		}
		return sub[1] + " _"
	})
	return pathLike.ReplaceAllString(s, "_")
}

// notAName are the words that follow a kind used as a noun ("not a
// GitRepository of this repository", "the chart cache"): no name.
var notAName = map[string]bool{
	"of": true, "from": true, "in": true, "at": true, "is": true, "to": true, "that": true, "the": true, "a": true,
	"and": true, "which": true, "with": true, "for": true, "by": true, "its": true, "it": true, "not": true, "or": true,
	"cache": true, "would": true, "must": true, "has": true, "was": true, "are": true, "whose": true,
}
