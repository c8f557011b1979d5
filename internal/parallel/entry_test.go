package parallel

import (
	"sync"
	"testing"
)

func TestEntryOncePerKey(t *testing.T) {
	var mu sync.Mutex
	var m map[string]*int
	a, b := Entry(&mu, &m, "a"), Entry(&mu, &m, "b")
	if a == b || Entry(&mu, &m, "a") != a || len(m) != 2 {
		t.Fatalf("entries %p %p, map %v", a, b, m)
	}
}
