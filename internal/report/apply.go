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
