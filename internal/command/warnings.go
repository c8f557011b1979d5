package command

import (
	"errors"
	"io"
	"strings"

	"github.com/ownership-check/ownership-check/internal/printer"
)

// warnings are what the renders of a listing warned of about their
// clusters, each once: a context not in the kubeconfig is the same
// warning for every target of it. What a render left out is its row's.
type warnings struct {
	seen map[string]bool
	errs []error
}

func (w *warnings) add(errs []error) {
	for _, e := range errs {
		msg := e.Error()
		if w.seen[msg] || strings.HasPrefix(msg, "not checked: ") {
			continue
		}
		if w.seen == nil {
			w.seen = map[string]bool{}
		}
		w.seen[msg] = true
		w.errs = append(w.errs, errors.New(msg))
	}
}

// write prints them after the listing, so that its table stays whole.
func (w *warnings) write(to io.Writer) {
	printer.Warnings(to, "ownership-check: warning: ", w.errs)
}
