package report

// The method the deploy was predicted to apply with decides what its
// findings mean (a conflict fails a server-side apply without force, a
// client-side apply meets none), so every format says it beside the
// engine (docs/deployers-apply.md "The deployers").

// applyWords is the method and why, in one line: "" when the report does
// not say (one read from JSON written before it did).
func (r *Report) applyWords() (method, why string) {
	if r.Apply == nil {
		return "", ""
	}
	return r.Apply.String(), r.Apply.Why
}

// applyText is the text header's line.
func (r *Report) applyText() string {
	method, why := r.applyWords()
	if method == "" {
		return ""
	}
	if why == "" {
		return "apply: " + method
	}
	return "apply: " + method + " — " + why
}

// mdApply is the markdown section's line.
func mdApply(r *Report) string {
	method, why := r.applyWords()
	if method == "" {
		return ""
	}
	if why == "" {
		return "**Apply:** " + mdText(method) + "\n\n"
	}
	return "**Apply:** " + mdText(method) + " — " + mdProse(why) + "\n\n"
}

// The Helm that rendered the charts decides what some of them hold (a
// ConfigMap's trailing line break, a chart's nulls: docs/helm.md), so
// it is said beside the method, where the deploy releases charts.

// helmText is the text header's line: "" when no chart was rendered.
func (r *Report) helmText() string {
	if r.Helm == nil {
		return ""
	}
	if r.Helm.Why == "" {
		return "charts rendered with: " + r.Helm.String()
	}
	return "charts rendered with: " + r.Helm.String() + " — " + r.Helm.Why
}

// mdHelm is the markdown section's line.
func mdHelm(r *Report) string {
	if r.Helm == nil {
		return ""
	}
	if r.Helm.Why == "" {
		return "**Charts rendered with:** " + mdText(r.Helm.String()) + "\n\n"
	}
	return "**Charts rendered with:** " + mdText(r.Helm.String()) + " — " + mdProse(r.Helm.Why) + "\n\n"
}
