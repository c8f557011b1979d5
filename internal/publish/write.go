package publish

import (
	"context"
	"time"

	"github.com/ownership-check/ownership-check/internal/report"
)

// Options say how Write writes the comment and the labels.
type Options struct {
	// Comment is the comment input: update (this run's sections merged
	// into the one comment), new (a comment per run), hide-and-new
	// (update, but a changed verdict is a new comment and the old one
	// hidden as outdated, hide.go), on-findings (update, but no comment
	// while nothing warns or fails) or off.
	Comment string
	// Labels sets the pull request's labels from the comment's sections
	// (labels.go).
	Labels bool
	// Author is the login the store writes as (Sticky.Author).
	Author string
	// Settle: see Sticky.Settle.
	Settle time.Duration
	// Limit is the platform's limit on a comment's body, which the
	// comment is folded to (0: MaxCommentLen, GitHub's and the smallest).
	Limit int
}

// limit is the size the comment is folded to.
func (o Options) limit() int {
	if o.Limit > 0 {
		return o.Limit
	}
	return MaxCommentLen
}

// Commenting tells whether the Comment input writes a comment.
func (o Options) Commenting() bool {
	switch o.Comment {
	case "update", "new", "on-findings", "hide-and-new":
		return true
	}
	return false
}

// Written is what Write did; it fails nothing, its caller says what did
// not happen.
type Written struct {
	// Result is the comment written or found; its Outcome is "" when no
	// comment was written (Comment off, or Err).
	Result Result
	// Err is why the comment could not be written (wrapping
	// ErrCannotComment when the token may not write).
	Err error
	// HideErr is why the earlier comment could not be hidden
	// (hide-and-new).
	HideErr error
	// LabelsErr is why the labels could not be set.
	LabelsErr error
}

// Write writes this run's sections into the pull request's comment in one
// edit, with lead under the verdict (RenderTargets), as o.Comment says,
// and then the labels (o.Labels) from the comment's sections: those of the
// body last written or found, else this run's.
func Write(ctx context.Context, st Store, o Options, secs []*Section, lead string) Written {
	var w Written
	// written is the body last written or found, whose sections the
	// labels are set from.
	written := ""
	if o.Commenting() {
		written, w.Result, w.Err, w.HideErr = writeComment(ctx, st, o, secs, lead)
	}
	if o.Labels {
		outs := outcomesOf(secs)
		if written != "" {
			outs = outcomesOf(ParseSections(written))
		}
		w.LabelsErr = syncLabels(ctx, st, outs)
	}
	return w
}

// outcomesOf are the sections' rows of the summary table.
func outcomesOf(secs []*Section) []report.Outcome {
	outs := make([]report.Outcome, len(secs))
	for i, s := range secs {
		outs[i] = s.Outcome()
	}
	return outs
}

// writeComment writes the comment as o.Comment says and returns the body
// now in use ("" when none), what it did, and why it could not write the
// comment or hide the earlier one.
func writeComment(ctx context.Context, st Store, o Options, secs []*Section, lead string) (string, Result, error, error) {
	sticky := &Sticky{Store: st, Marker: CommentMarker, Author: o.Author, Settle: o.Settle}
	written := ""
	merge := func(old string) string {
		written = MergeSections(old, secs, lead, o.limit())
		return written
	}
	if o.Comment == "on-findings" {
		// No comment while nothing warns or fails; an earlier one says
		// all clear once nothing does.
		sticky.NoCreate = allClear(secs)
		merge = func(old string) string {
			body := MergeSections(old, secs, lead, o.limit())
			written = body
			if all := ParseSections(body); allClear(all) {
				return AllClearBody(all, termsOf(secs))
			}
			return body
		}
	}
	present := func(body string) bool {
		written = body
		for _, s := range secs {
			if !s.In(body) {
				return false
			}
		}
		return true
	}
	var res Result
	var err, hideErr error
	switch o.Comment {
	case "new":
		written = RenderTargets(secs, lead, o.limit())
		res, err = sticky.Post(ctx, written)
	case "hide-and-new":
		res, err, hideErr = sticky.hideAndNew(ctx, merge, present)
	default:
		res, err = sticky.Update(ctx, merge, present)
	}
	if err != nil {
		return "", Result{}, err, hideErr
	}
	if res.Outcome == NotCreated {
		return "", res, nil, hideErr
	}
	return written, res, nil, hideErr
}
