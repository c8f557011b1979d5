package charts

import "sync"

// Stats are what a run fetched: for the report's footnote and the
// benchmarks.
type Stats struct {
	// Downloads counts the chart archives, index files and schemas
	// fetched over the network (one answered 304 Not Modified is not
	// one), Bytes every body read from the network, CacheHits the
	// archives, indexes and schemas read from the cache instead.
	Downloads int
	Bytes     int64
	CacheHits int
}

// stats are a Fetcher's counts, safe for its concurrent Locate calls.
type stats struct {
	mu sync.Mutex
	s  Stats
}

func (s *stats) addBytes(n int64) {
	if n == 0 {
		return
	}
	s.mu.Lock()
	s.s.Bytes += n
	s.mu.Unlock()
}

func (s *stats) download() {
	s.mu.Lock()
	s.s.Downloads++
	s.mu.Unlock()
}

func (s *stats) hit() {
	s.mu.Lock()
	s.s.CacheHits++
	s.mu.Unlock()
}

func (s *stats) get() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.s
}
