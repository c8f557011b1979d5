package report

import "testing"

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	want := "@@ -1,7 +1,7 @@\n  a\n  b\n  c\n- d\n+ D\n  e\n  f\n  g\n@@ -11,3 +11,4 @@\n  k\n  l\n  m\n+ n\n"
	if got := unifiedDiff(a, b); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff(a, a); got != "" {
		t.Errorf("equal sides: %q", got)
	}
}
