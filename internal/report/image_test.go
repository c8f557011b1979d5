package report

import "testing"

// TestImageChange: an image bump reads as the tag's change; a container
// added or removed says which side has no image, never a bare arrow.
func TestImageChange(t *testing.T) {
	plain := func(s string) string { return s }
	for _, tc := range []struct {
		im   imageLine
		want string
	}{
		{imageLine{"nginx:1.26", "nginx:1.27", []string{"Deployment shop/web"}}, "Deployment shop/web: nginx 1.26 → 1.27"},
		{imageLine{"ghcr.io/example/migrate:2.1", "", []string{"Deployment shop/worker"}}, "Deployment shop/worker: ghcr.io/example/migrate:2.1 → (unset)"},
		{imageLine{"", "busybox:1.36", []string{"a", "b"}}, "(unset) → busybox:1.36 on 2 workloads"},
	} {
		if got := imageChange(tc.im, plain); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
