package values

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReaderRefusesWhatItCannotRead: a file under the directories that
// cannot be read (a link out of the repository) or a ConfigMap that does
// not parse is an error naming the file, never passed over; YAML that is
// no manifest (a chart's template) is none of the reader's business.
func TestReaderRefusesWhatItCannotRead(t *testing.T) {
	for name, tc := range map[string]struct {
		file, text, link, want string
	}{
		"link out":            {file: "clusters/vars.yaml", link: "outside", want: "clusters/vars.yaml: symlink to "},
		"malformed ConfigMap": {file: "clusters/vars.yaml", text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n", want: "clusters/vars.yaml:3: malformed YAML"},
		"template":            {file: "clusters/chart/templates/cm.yaml", text: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n  {{- if x }}: y\n"},
	} {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			repo := filepath.Join(base, "repo")
			if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(repo, filepath.FromSlash(tc.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.link != "" {
				outside := filepath.Join(base, "outside.yaml")
				if err := os.WriteFile(outside, []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: canary-values}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, p); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(repo)
			_, _, found, err := New([]string{filepath.Join(repo, "clusters")}, nil).Values(context.Background(), "Secret", "default", "s", nil)
			if tc.want == "" {
				if err != nil || found {
					t.Errorf("found %v, %v; want nothing", found, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "canary-values") {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
}
