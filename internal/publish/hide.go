package publish

import (
	"context"
	"strings"
)

// comment: hide-and-new. Editing a comment notifies no one; when the
// verdict changes, people should hear of it. So the old comment is folded
// away as outdated (a store that is a Hider: on GitHub it is minimized,
// "This comment was marked as outdated") and a new one is posted. Only
// our own marked comment is hidden, as only it is edited (Sticky). While
// the verdict stays the same, the comment is edited in place, as comment:
// update does.

// Verdict is a comment body's verdict line: the first line after its
// title that starts with a verdict's icon.
func Verdict(body string) string {
	for _, l := range strings.Split(body, "\n") {
		for _, icon := range []string{"✅", "❌", "⚠️", "⏳"} {
			if strings.HasPrefix(l, icon) {
				return l
			}
		}
	}
	return ""
}

// hideAndNew writes the sections for comment: hide-and-new: a new comment
// and the old one hidden when the merged verdict differs from the old
// one's, else the old one edited. When the store cannot hide, the old
// comment stays as it is. The second error is the hiding's.
func (s *Sticky) hideAndNew(ctx context.Context, merge func(string) string, present func(string) bool) (Result, error, error) {
	comments, err := s.find(ctx)
	if err != nil {
		return Result{}, err, nil
	}
	if len(comments) == 0 {
		res, err := s.Update(ctx, merge, present)
		return res, err, nil
	}
	cur := comments[len(comments)-1]
	body := merge(cur.Body)
	if Verdict(body) == Verdict(cur.Body) {
		res, err := s.Update(ctx, merge, present)
		return res, err, nil
	}
	res, err := s.Post(ctx, body)
	h, ok := s.Store.(Hider)
	if err != nil || !ok {
		return res, err, nil
	}
	return res, nil, h.HideComment(ctx, cur)
}
