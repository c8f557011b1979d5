package command

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/publish"
)

// Publish writes the sections into the pull (or merge) request's one
// comment through the store the front end gives, as o says, and returns
// what publish did and a line of progress that says it (the front end
// prints it). It never fails the run: a comment that could not be written
// is in Written.Err, and in the line.
func Publish(ctx context.Context, st publish.Store, o publish.Options, secs []*publish.Section, lead string) (publish.Written, string) {
	w := publish.Write(ctx, st, o, secs, lead)
	return w, WrittenLine(st, o, w)
}

// WrittenLine says in one line what Write did with the comment and the
// labels of st.
func WrittenLine(st publish.Store, o publish.Options, w publish.Written) string {
	line := ""
	switch {
	case !o.Commenting():
		line = fmt.Sprintf("%s: no comment (comment: %s)", st, o.Comment)
	case w.Err != nil:
		line = fmt.Sprintf("%s: no comment written: %s", st, w.Err)
	case w.Result.Outcome == publish.NotCreated:
		line = fmt.Sprintf("%s: nothing warns or fails, no comment (comment: on-findings)", st)
	case w.Result.URL != "":
		line = fmt.Sprintf("%s: comment %s (%s)", st, w.Result.Outcome, w.Result.URL)
	default:
		line = fmt.Sprintf("%s: comment %s", st, w.Result.Outcome)
	}
	if w.HideErr != nil {
		line += fmt.Sprintf("; the earlier comment could not be hidden: %s", w.HideErr)
	}
	if w.LabelsErr != nil {
		line += fmt.Sprintf("; labels not set: %s", w.LabelsErr)
	}
	return line
}
