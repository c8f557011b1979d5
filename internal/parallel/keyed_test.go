package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestKeyed(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, k *Keyed[string, int])
	}{{
		name: "concurrent callers build once",
		run: func(t *testing.T, k *Keyed[string, int]) {
			var builds atomic.Int32
			var wg sync.WaitGroup
			for range 32 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					v, err := k.Get(context.Background(), "a", func(context.Context) (int, error) {
						builds.Add(1)
						time.Sleep(10 * time.Millisecond)
						return 7, nil
					})
					if v != 7 || err != nil {
						t.Errorf("Get = %d, %v", v, err)
					}
				}()
			}
			wg.Wait()
			if n := builds.Load(); n != 1 {
				t.Fatalf("built %d times, want 1", n)
			}
		},
	}, {
		name: "an error is kept like a value",
		run: func(t *testing.T, k *Keyed[string, int]) {
			builds := 0
			for range 3 {
				_, err := k.Get(context.Background(), "a", func(context.Context) (int, error) {
					builds++
					return 0, boom
				})
				if !errors.Is(err, boom) {
					t.Fatalf("err = %v, want boom", err)
				}
			}
			if builds != 1 {
				t.Fatalf("built %d times, want 1", builds)
			}
		},
	}, {
		name: "a waiter's cancellation leaves the build to the others",
		run: func(t *testing.T, k *Keyed[string, int]) {
			started, release := make(chan struct{}), make(chan struct{})
			got := make(chan error, 1)
			go func() {
				v, err := k.Get(context.Background(), "a", func(context.Context) (int, error) {
					close(started)
					<-release
					return 1, nil
				})
				if v != 1 {
					err = errors.Join(err, errors.New("builder lost its value"))
				}
				got <- err
			}()
			<-started
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := k.Get(ctx, "a", func(context.Context) (int, error) { return 2, nil }); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled waiter: %v, want context.Canceled", err)
			}
			close(release)
			if err := <-got; err != nil {
				t.Fatal(err)
			}
			if v, err := k.Get(context.Background(), "a", nil); v != 1 || err != nil {
				t.Fatalf("after the build: %d, %v", v, err)
			}
		},
	}, {
		name: "a build whose own context ended is built again",
		run: func(t *testing.T, k *Keyed[string, int]) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := k.Get(ctx, "a", func(ctx context.Context) (int, error) { return 0, ctx.Err() }); err == nil {
				t.Fatal("cancelled build: no error")
			}
			if v, err := k.Get(context.Background(), "a", func(context.Context) (int, error) { return 3, nil }); v != 3 || err != nil {
				t.Fatalf("rebuilt: %d, %v", v, err)
			}
		},
	}, {
		name: "different keys build in parallel",
		run: func(t *testing.T, k *Keyed[string, int]) {
			// Each build waits for the other to start: under one lock
			// they would never meet.
			a, b := make(chan struct{}), make(chan struct{})
			var wg sync.WaitGroup
			for _, c := range []struct {
				key        string
				mine, them chan struct{}
			}{{"a", a, b}, {"b", b, a}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := k.Get(context.Background(), c.key, func(context.Context) (int, error) {
						close(c.mine)
						select {
						case <-c.them:
							return 1, nil
						case <-time.After(5 * time.Second):
							return 0, errors.New("the other key's build never started")
						}
					})
					if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
		},
	}, {
		name: "Each visits what was built",
		run: func(t *testing.T, k *Keyed[string, int]) {
			k.Get(context.Background(), "a", func(context.Context) (int, error) { return 1, nil })
			k.Get(context.Background(), "b", func(context.Context) (int, error) { return 0, boom })
			seen := map[string]int{}
			k.Each(func(key string, v int) { seen[key] = v })
			if len(seen) != 1 || seen["a"] != 1 {
				t.Fatalf("Each saw %v", seen)
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, &Keyed[string, int]{}) })
	}
}
