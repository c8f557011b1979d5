package render

import (
	"bufio"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// HiddenValue replaces a Secret's values in Encode's output. It is not
// valid base64, so a Secret printed without its values cannot be applied
// by mistake.
const HiddenValue = "(hidden)"

// EncodeOptions tune Encode.
type EncodeOptions struct {
	// ShowSecrets prints Secret values as they are. Without it, every value
	// of a Secret's data and stringData is HiddenValue.
	ShowSecrets bool
}

// Encode writes objects as multi-document YAML, each preceded by a comment
// naming its source: exactly what the deploy should apply, except that
// Secret values are hidden (see EncodeWith).
func Encode(w io.Writer, objs []Object) error {
	return EncodeWith(w, objs, EncodeOptions{})
}

// EncodeWith is Encode with options; ShowSecrets gives output a deploy can
// apply as it is (ownership-check render --show-secrets | kubectl apply
// --server-side -f -).
func EncodeWith(w io.Writer, objs []Object, o EncodeOptions) error {
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
		content := obj.Object.Object
		if !o.ShowSecrets && isSecret(obj.ID) {
			content = hideSecretValues(content)
			bw.WriteString("# Secret values hidden; ownership-check render --show-secrets prints them.\n")
		}
		y, err := yaml.Marshal(content)
		if err != nil {
			return fmt.Errorf("%s: %w", obj.ID, err)
		}
		bw.Write(y)
	}
	return bw.Flush()
}

func isSecret(id ID) bool { return id.Group == "" && id.Kind == "Secret" }

// hideSecretValues returns a copy of a Secret with its values replaced.
func hideSecretValues(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	for _, field := range []string{"data", "stringData"} {
		values, ok := obj[field].(map[string]any)
		if !ok {
			continue
		}
		hidden := make(map[string]any, len(values))
		for k := range values {
			hidden[k] = HiddenValue
		}
		out[field] = hidden
	}
	// Client-side apply's copy of the whole object holds the values too.
	if meta, ok := obj["metadata"].(map[string]any); ok {
		if ann, ok := meta["annotations"].(map[string]any); ok {
			if _, ok := ann[lastAppliedAnnotation]; ok {
				m := make(map[string]any, len(meta))
				for k, v := range meta {
					m[k] = v
				}
				a := make(map[string]any, len(ann))
				for k, v := range ann {
					a[k] = v
				}
				a[lastAppliedAnnotation] = HiddenValue
				m["annotations"] = a
				out["metadata"] = m
			}
		}
	}
	return out
}

const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
