package render

import (
	"bufio"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/yaml"
)

// EncodeOptions tune Encode.
type EncodeOptions struct {
	// ShowSecrets prints Secret values as they are. Without it, every value
	// of a Secret's data and stringData is model.HiddenValue.
	ShowSecrets bool
}

// Encode writes objects as multi-document YAML, each preceded by a comment
// naming its source: exactly what the deploy should apply, except that
// Secret values are hidden (see EncodeWith).
func Encode(w io.Writer, objs []model.Object) error {
	return EncodeWith(w, objs, EncodeOptions{})
}

// EncodeWith is Encode with options; ShowSecrets gives output a deploy can
// apply as it is (ownership-check render --show-secrets | kubectl apply
// --server-side -f -).
func EncodeWith(w io.Writer, objs []model.Object, o EncodeOptions) error {
	bw := bufio.NewWriter(w)
	for i, obj := range objs {
		if i > 0 {
			bw.WriteString("---\n")
		}
		if obj.Source != "" {
			if obj.Line > 0 {
				fmt.Fprintf(bw, "# Source: %s:%d\n", obj.Source, obj.Line)
			} else {
				fmt.Fprintf(bw, "# Source: %s\n", obj.Source)
			}
		}
		for _, n := range obj.Notes {
			fmt.Fprintf(bw, "# Note: %s\n", n)
		}
		content := obj.Object.Object
		if !o.ShowSecrets && obj.ID.IsSecret() {
			content = model.HideValues(content)
			bw.WriteString("# Secret values hidden; ownership-check render --show-secrets prints them.\n")
		}
		if !o.ShowSecrets && obj.HiddenValues.Len() > 0 {
			content = obj.HiddenValues.HideWithin(content).(map[string]any)
			bw.WriteString("# Values read from a Secret hidden; ownership-check render --show-secrets prints them.\n")
		}
		y, err := yaml.Marshal(content)
		if err != nil {
			return fmt.Errorf("%s: %w", obj.ID, err)
		}
		bw.Write(y)
	}
	return bw.Flush()
}
