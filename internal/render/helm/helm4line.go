package helm

import (
	"regexp"
	"strings"
	"unicode"

	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// The Helm 4 releases a deployer may run whose renders differ (docs/helm.md
// "What differs"). Only one Helm 4 SDK is in the module, the newest: an
// older line is that SDK with the older release's behaviour put back where
// they differ, which this file holds.
const (
	// Helm41 is Helm 4.1 (Flux 2.8's helm-controller v1.5): every
	// document is trimmed of surrounding whitespace, as Helm 3 does, and
	// the nulls of a chart's own values are kept in .Values.
	Helm41 = "4.1"
	// Helm42 is Helm 4.2 before 4.2.4 (Flux 2.9's helm-controller v1.6.0
	// to v1.6.2, Argo CD 3.5): the last document of a template keeps its
	// trailing whitespace, the others lose it; the nulls of a chart's own
	// values are dropped. Post-rendered, each document is parsed apart as
	// split, so a block scalar that ends a document before another loses
	// its last line break.
	Helm42 = "4.2"
	// Helm424 is Helm 4.2.4 and later 4.2 releases (helm-controller v1.6.3
	// on): documents split as the newest's.
	Helm424 = "4.2.4"
	// Helm4Newest is the SDK's own release: every document keeps its
	// trailing whitespace.
	Helm4Newest = "4.3"
)

// helm4Line is what a Helm 4 release does differently from the SDK's.
type helm4Line struct {
	// version is .Capabilities.HelmVersion.Version: the SDK's own for
	// the lines a controller embeds (helm-controller), the release's for
	// the helm command line.
	version string
	// kubeVersion is the line's helm binary's Kubernetes version when
	// no cluster says one: its client-go's minor (Helm's Makefile).
	kubeVersion KubeVersion
	// apiVersions are the binary's built-in API versions (its client-go
	// scheme's), which `helm template` renders with.
	apiVersions []string
	// split, when set, is how the line splits a rendered file into
	// documents, where it differs from the SDK's.
	split func(file string) []string
	// keepsChartNulls: the line's coalescing leaves the nulls of a
	// chart's own values in .Values (Helm ≤ 4.1, as Helm 3).
	keepsChartNulls bool
	// parsesSplit: with a post-renderer, the line parses each document as
	// split (its action.annotateAndMerge), not the rendered file whole
	// (postRendered).
	parsesSplit bool
}

// lineOf is the Helm 4 line called name; "" or an unknown name is the
// newest.
func lineOf(name string) helm4Line {
	switch name {
	case Helm41:
		return helm4Line{version: "v4.1", kubeVersion: KubeVersion{Version: "v1.35.0", Major: "1", Minor: "35"},
			apiVersions: helm4APIVersions135, split: splitTrimmed, keepsChartNulls: true}
	case Helm42:
		return helm4Line{version: "v4.2", kubeVersion: KubeVersion{Version: "v1.36.0", Major: "1", Minor: "36"},
			apiVersions: helm4APIVersions136, split: splitKeepingLast, parsesSplit: true}
	case Helm424:
		return helm4Line{version: "v4.2", kubeVersion: KubeVersion{Version: "v1.36.0", Major: "1", Minor: "36"},
			apiVersions: helm4APIVersions136, parsesSplit: true}
	}
	return helm4Line{version: "v4.3.1", kubeVersion: KubeVersion{Version: "v1.37.0", Major: "1", Minor: "37"},
		apiVersions: helm4APIVersions137, parsesSplit: true}
}

// helm42Separator is the document separator of Helm before 4.2.4 (its
// releaseutil.SplitManifests): it takes the whitespace before and after
// `---` with it.
var helm42Separator = regexp.MustCompile("(?:^|\\s*\n)---\\s*")

// splitTrimmed is Helm 4.1's (and Helm 3's) split: each document trimmed
// of whitespace at both ends.
func splitTrimmed(file string) []string {
	var docs []string
	for _, d := range helm42Separator.Split(strings.TrimSpace(file), -1) {
		if d = strings.TrimSpace(d); d != "" {
			docs = append(docs, d)
		}
	}
	return docs
}

// splitKeepingLast is Helm 4.2's split: the separator takes a document's
// trailing whitespace, but the file's last document keeps its own.
func splitKeepingLast(file string) []string {
	var docs []string
	for _, d := range helm42Separator.Split(strings.TrimLeftFunc(file, unicode.IsSpace), -1) {
		if strings.TrimSpace(d) != "" {
			docs = append(docs, strings.TrimLeftFunc(d, unicode.IsSpace))
		}
	}
	return docs
}

// postRenderAnnotation is what Helm 4 marks each document's file with
// while a post-renderer runs (action.annotateAndMerge).
const postRenderAnnotation = "postrenderer.helm.sh/postrender-filename"

// glued is "---" at the start of a line with the document glued to it,
// which Helm 4.1 parts before it parses a file (fixDocSeparators).
var glued = regexp.MustCompile(`(?m)^---([^\s])`)

// postRendered is a rendered file as a post-rendering Helm 4 hands it on
// (action.annotateAndMerge, then splitAndDeannotate): parsed (the whole
// file in 4.1; each document as split from 4.2 on, which reads a block
// scalar at the end of a document without a line break the split took),
// each document's file annotation set and cleared (an empty or null
// metadata.annotations goes with it), written again (kio.StringAll) and
// split as the line splits. A file that does not parse is left for
// Helm's own parse to fail on.
func postRendered(line helm4Line, sdk func(string) []string, file string) []string {
	split := line.split
	if split == nil {
		split = sdk
	}
	if docs := split(file); !postRenderChanges(line, docs) {
		// What parsing and writing would leave as it is is not parsed:
		// most documents, and kyaml's parse costs more than Helm's render.
		return docs
	}
	var nodes []*kyaml.RNode
	if line.parsesSplit {
		for _, d := range split(file) {
			n, err := kio.ParseAll(d)
			if err != nil {
				return split(file)
			}
			nodes = append(nodes, n...)
		}
	} else {
		n, err := kio.ParseAll(glued.ReplaceAllString(file, "---\n$1"))
		if err != nil {
			return split(file)
		}
		nodes = n
	}
	for _, n := range nodes {
		if err := n.PipeE(kyaml.SetAnnotation(postRenderAnnotation, "x")); err != nil {
			return split(file)
		}
		if err := n.PipeE(kyaml.ClearAnnotation(postRenderAnnotation)); err != nil {
			return split(file)
		}
	}
	s, err := kio.StringAll(nodes)
	if err != nil {
		return split(file)
	}
	return split(s)
}

// emptyAnnotations is a metadata.annotations with no value on its line
// (null, or a map whose entries may follow), or an empty map.
var emptyAnnotations = regexp.MustCompile(`(?m)^([ \t]*)annotations:[ \t]*(?:null|~|\{[ \t]*\})?[ \t]*(?:#.*)?$`)

// blockScalar is a line that starts a block scalar (`key: |`, `- >-`).
var blockScalar = regexp.MustCompile(`(?m)[|>][-+0-9]*[ \t]*(?:#.*)?$`)

// keepScalar is a line that starts a block scalar keeping its trailing
// line breaks (`key: |+`, `- >2+`).
var keepScalar = regexp.MustCompile(`(?m)[|>](?:[0-9]?\+|\+[0-9])[ \t]*(?:#.*)?$`)

// postRenderChanges tells whether post-rendering may change docs (a
// file's documents as the line splits them): an empty or null
// annotations map is dropped; where the line parses each document as
// split, a block scalar may lose the line break the split took; and a
// scalar that keeps its line breaks is written again as one that need
// not, so that the line break Helm puts after each document of the
// release's manifest is no longer in it. It may say yes where nothing
// changes, never no where something does.
func postRenderChanges(line helm4Line, docs []string) bool {
	for i, d := range docs {
		if line.parsesSplit && line.split != nil && i < len(docs)-1 && blockScalar.MatchString(d) {
			return true
		}
		if keepScalar.MatchString(d) {
			return true
		}
		for _, m := range emptyAnnotations.FindAllStringSubmatchIndex(d, -1) {
			indent := m[3] - m[2]
			rest := strings.TrimLeft(d[m[1]:], "\n")
			next, _, _ := strings.Cut(rest, "\n")
			for strings.TrimSpace(next) == "" || strings.HasPrefix(strings.TrimSpace(next), "#") {
				if rest == "" {
					break
				}
				_, rest, _ = strings.Cut(rest, "\n")
				next, _, _ = strings.Cut(rest, "\n")
			}
			if len(next)-len(strings.TrimLeft(next, " \t")) <= indent || strings.TrimSpace(d[m[0]:m[1]]) != "annotations:" {
				return true
			}
			// The value on the lines below the key: a flow map or a
			// null there (`annotations:` then `{}`, as Bitnami's
			// charts write an empty one) is as empty.
			if v := strings.TrimSpace(next); strings.HasPrefix(v, "{") || v == "null" || v == "~" {
				return true
			}
		}
	}
	return false
}

// lineDocuments maps each document of files as the SDK splits it (sdk)
// to the same document as split splits it: both find the same documents
// in the same order, and differ only in the whitespace around them. The
// sorted hooks and manifests keep a file's documents in their order, so a
// document that appears twice in a file is taken in turn.
func lineDocuments(files map[string]string, split, sdk func(string) []string) func(path, content string) string {
	type key struct{ path, content string }
	queue := map[key][]string{}
	for path, file := range files {
		ours, theirs := split(file), sdk(file)
		if len(ours) != len(theirs) {
			continue
		}
		for i, d := range theirs {
			k := key{path, d}
			queue[k] = append(queue[k], ours[i])
		}
	}
	return func(path, content string) string {
		k := key{path, content}
		q := queue[k]
		if len(q) == 0 {
			return content
		}
		queue[k] = q[1:]
		return q[0]
	}
}

// chartNull stands for a null of a chart's own values while Helm 4's
// coalescing runs, which drops those nulls since 4.2: it is no null to
// it, so it stays where 4.1 keeps the null, and becomes one again after
// (unmarkNulls). A key the user's values set to null is still removed,
// as in 4.1; a nested key both set to null is removed where 4.1 keeps
// the null (docs/helm.md).
type chartNull struct{}

// keepNulls is values with every null of a table (not of a list, which
// coalescing never looks into) a chartNull; values is not changed.
func keepNulls(values map[string]any) map[string]any {
	if values == nil {
		return nil
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		switch v := v.(type) {
		case nil:
			out[k] = chartNull{}
		case map[string]any:
			out[k] = keepNulls(v)
		default:
			out[k] = v
		}
	}
	return out
}

// unmarkNulls puts each chartNull of values back to null, in place.
func unmarkNulls(values map[string]any) {
	for k, v := range values {
		switch v := v.(type) {
		case chartNull:
			values[k] = nil
		case map[string]any:
			unmarkNulls(v)
		case []any:
			for i, e := range v {
				switch e := e.(type) {
				case chartNull:
					v[i] = nil
				case map[string]any:
					unmarkNulls(e)
				}
			}
		}
	}
}
