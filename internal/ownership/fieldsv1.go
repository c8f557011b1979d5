package ownership

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// ParseFieldsV1 parses a managedFields entry's fieldsV1 into a field set with
// structured-merge-diff's own decoder, so that f:, k:, v:, i: and "." entries
// mean exactly what they mean to the API server. Empty input is the empty set.
func ParseFieldsV1(raw []byte) (set *fieldpath.Set, err error) {
	set = &fieldpath.Set{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return set, nil
	}
	// The decoder was written for the API server's own output; snapshots and
	// hand-edited files are not, and a malformed one must fail the object,
	// not the whole run.
	defer func() {
		if r := recover(); r != nil {
			set, err = nil, fmt.Errorf("invalid fieldsV1: %v", r)
		}
	}()
	if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
		return nil, fmt.Errorf("invalid fieldsV1: %w", err)
	}
	if err := checkSet(set); err != nil {
		return nil, fmt.Errorf("invalid fieldsV1: %w", err)
	}
	return set, nil
}

// checkSet rejects path elements the decoder accepts but that select nothing
// (an empty k:{}), which would otherwise match every list item by key.
func checkSet(s *fieldpath.Set) error {
	var err error
	s.Iterate(func(p fieldpath.Path) {
		if err != nil {
			return
		}
		for _, pe := range p {
			if e := model.CheckElement(pe); e != nil {
				err = fmt.Errorf("%s: %w", p, e)
				return
			}
		}
	})
	return err
}
