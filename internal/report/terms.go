package report

import "strings"

// Terms are the platform's words in the prose of the markdown: what it
// calls the change under review, the run that wrote a section, and the
// comment itself. They are a front end's to set
// (MarkdownOptions.Terms); the zero value is GitHub's, so the comment, the
// job summary and the text output read as they always have. Only prose
// takes them: the JSON report, the cause values (`pull-request`) and the
// values shown in diffs are data and never change with the platform.
type Terms struct {
	// Change is the change under review in lower case: "" is "pull
	// request" (GitHub), GitLab's front end sets "merge request".
	Change string
	// Run is what the footer's link to the run that wrote a section
	// says: "" is "workflow run" (GitHub Actions), GitLab's is "job".
	Run string
	// Platform, Comment and Details are what publish says of a comment
	// folded to the platform's limit, and where a run's details are: ""
	// are "GitHub", "comment" and "job summary"; GitLab's "GitLab",
	// "note" and "job log".
	Platform, Comment, Details string
}

// Resolved are t with GitHub's words where t leaves one empty.
func (t Terms) Resolved() Terms {
	for _, w := range []struct {
		word *string
		def  string
	}{
		{&t.Change, "pull request"}, {&t.Run, "workflow run"}, {&t.Platform, "GitHub"}, {&t.Comment, "comment"}, {&t.Details, "job summary"},
	} {
		if *w.word == "" {
			*w.word = w.def
		}
	}
	return t
}

// run is the footer's name of the run that wrote a section.
func (t Terms) run() string { return t.Resolved().Run }

// change is the change's name in the middle of a sentence.
func (t Terms) change() string { return t.Resolved().Change }

// this is "this pull request" in the middle of a sentence.
func (t Terms) this() string { return "this " + t.change() }

// capThis is "This pull request" at the start of one.
func (t Terms) capThis() string {
	s := t.this()
	return strings.ToUpper(s[:1]) + s[1:]
}
