package command

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/publish"
)

type namedStore struct{ publish.Store }

func (namedStore) String() string { return "merge request !7" }

func TestWrittenLine(t *testing.T) {
	st := namedStore{}
	update := publish.Options{Comment: "update"}
	for _, c := range []struct {
		o    publish.Options
		w    publish.Written
		want string
	}{
		{publish.Options{Comment: "off"}, publish.Written{}, "merge request !7: no comment (comment: off)"},
		{update, publish.Written{Result: publish.Result{Outcome: publish.Created, URL: "https://x/7#note_1"}}, "merge request !7: comment created (https://x/7#note_1)"},
		{update, publish.Written{Err: errors.New("403 Forbidden")}, "merge request !7: no comment written: 403 Forbidden"},
		{publish.Options{Comment: "on-findings"}, publish.Written{Result: publish.Result{Outcome: publish.NotCreated}}, "nothing warns or fails, no comment"},
		{update, publish.Written{Result: publish.Result{Outcome: publish.Updated}, LabelsErr: errors.New("429")}, "comment updated; labels not set: 429"},
	} {
		if got := WrittenLine(st, c.o, c.w); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}
