package charts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// cache is the content-addressed store under the cache directory:
//
//	blobs/sha256/HEX       chart archives, by the SHA-256 of their bytes
//	index/KEY.yaml, .json  index files by URL, with their digest and validators
//	schema/KEY.body, .json schemas a chart's values schema names by URL, alike
//	oci/KEY.json           what an OCI tag, range or digest, or an archive's
//	                       URL, resolved to last (an --offline run's answer)
//
// (KEY is the SHA-256 of the URL or reference). Everything is written to
// a temporary file and renamed, so that a concurrent run or a killed one
// never leaves half a file under a final name, and an archive is checked
// against its name when read.
type cache struct{ dir string }

func newCache(dir string) (*cache, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("chart cache: no user cache directory (%v): give one with --chart-cache", err)
		}
		dir = filepath.Join(base, "ownership-check", "charts")
	}
	for _, sub := range []string{"blobs/sha256", indexDocs, schemaDocs, "oci"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("chart cache %s: %w: give a writable directory with --chart-cache", dir, err)
		}
	}
	return &cache{dir: dir}, nil
}

// sha256Digest is "sha256:" and the hex of b's SHA-256.
func sha256Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func keyOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func (c *cache) blobPath(digest string) (string, bool) {
	hexd, ok := strings.CutPrefix(digest, "sha256:")
	if !ok || len(hexd) != 64 {
		return "", false
	}
	if _, err := hex.DecodeString(hexd); err != nil {
		return "", false
	}
	return filepath.Join(c.dir, "blobs", "sha256", hexd), true
}

// archive is the cached archive of digest, or nil; one whose bytes no
// longer match its name is removed and read as missing.
func (c *cache) archive(digest string) []byte {
	path, ok := c.blobPath(digest)
	if !ok {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if sha256Digest(b) != digest {
		_ = os.Remove(path)
		return nil
	}
	return b
}

// putArchive stores b under its digest and returns the digest.
func (c *cache) putArchive(b []byte) (string, error) {
	digest := sha256Digest(b)
	path, _ := c.blobPath(digest)
	return digest, c.write(path, b)
}

// indexMeta is what is kept beside a cached document fetched by URL (an
// index file, a schema).
type indexMeta struct {
	URL          string `json:"url"`
	Digest       string `json:"digest"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
}

// A document fetched by URL is kept under its kind's folder.
const (
	indexDocs  = "index"
	schemaDocs = "schema"
)

func (c *cache) docPaths(kind, url string) (file, meta string) {
	base := filepath.Join(c.dir, kind, keyOf(url))
	ext := ".yaml"
	if kind == schemaDocs {
		ext = ".body"
	}
	return base + ext, base + ".json"
}

// doc is the cached document of kind at url and its meta, checked
// against the digest recorded; ok is false when there is none.
func (c *cache) doc(kind, url string) (path string, meta indexMeta, ok bool) {
	path, metaPath := c.docPaths(kind, url)
	if !c.readJSON(metaPath, &meta) || meta.URL != url {
		return "", indexMeta{}, false
	}
	if d, err := fileDigest(path); err != nil || d != meta.Digest {
		return "", indexMeta{}, false
	}
	return path, meta, true
}

// fileDigest is the digest of the file at path, read as a stream: an
// index is as large as 50 MiB.
func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// putDoc stores the document of kind at url from body as it is read; an
// error of body's (the network, the bound) is returned as it is, one of
// the cache's as a cacheError.
func (c *cache) putDoc(kind, url string, body io.Reader, meta indexMeta) (string, error) {
	path, metaPath := c.docPaths(kind, url)
	digest, err := c.writeFrom(path, body)
	if err != nil {
		return "", err
	}
	meta.URL, meta.Digest = url, digest
	return path, c.writeJSON(metaPath, meta)
}

// ociPin is what an OCI reference (a tag, a range, a digest) resolved
// to, or (Manifest empty) the archive an archive's URL gave.
type ociPin struct {
	Ref      string `json:"ref"`
	Tag      string `json:"tag,omitempty"`
	Manifest string `json:"manifest"`
	Archive  string `json:"archive"`
}

func (c *cache) ociPath(ref string) string {
	return filepath.Join(c.dir, "oci", keyOf(ref)+".json")
}

func (c *cache) oci(ref string) (ociPin, bool) {
	var p ociPin
	ok := c.readJSON(c.ociPath(ref), &p) && p.Ref == ref
	return p, ok
}

func (c *cache) putOCI(p ociPin) error { return c.writeJSON(c.ociPath(p.Ref), p) }

func (c *cache) readJSON(path string, v any) bool {
	b, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(b, v) == nil
}

func (c *cache) writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.write(path, b)
}

// writeFrom puts what r gives at path through a temporary file and a
// rename, and gives its digest; r's error is returned as it is, and nothing is left.
func (c *cache) writeFrom(path string, r io.Reader) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return "", &cacheError{dir: c.dir, err: err}
	}
	h := sha256.New()
	src := &readErr{r: r}
	_, err = io.Copy(io.MultiWriter(tmp, h), src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		if src.err != nil {
			return "", src.err
		}
		return "", &cacheError{dir: c.dir, err: err}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// readErr keeps the error of its reader, to tell it from a write's.
type readErr struct {
	r   io.Reader
	err error
}

func (e *readErr) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// write puts b at path through a temporary file and a rename (writeFrom);
// the error is the operator's (the cache directory is not writable).
func (c *cache) write(path string, b []byte) error {
	_, err := c.writeFrom(path, bytes.NewReader(b))
	return err
}

// cacheError is a cache that cannot be written: the operator's to fix,
// so Locate returns it as an error rather than a chart's reason.
type cacheError struct {
	dir string
	err error
}

func (e *cacheError) Error() string {
	return fmt.Sprintf("chart cache %s: %v: give a writable directory with --chart-cache", e.dir, e.err)
}

func (e *cacheError) Unwrap() error { return e.err }

func isCacheError(err error) bool {
	var ce *cacheError
	return errors.As(err, &ce)
}
