package snapshot

import (
	"errors"
	"testing"
)

// FuzzDecodeFolder feeds an arbitrary index.json and object file to the
// snapshot decoder: a corrupt, hostile or newer snapshot must be an error
// naming a file (a FileError), never a panic or a snapshot whose objects
// disagree with its index.
//
//	go test ./internal/snapshot -short -run '^$' -fuzz FuzzDecodeFolder -fuzztime 3m
func FuzzDecodeFolder(f *testing.F) {
	h := hasher(f)
	snap := newSnapshot("staging", h, fixtures()...)
	files, err := encodeFiles(snap)
	if err != nil {
		f.Fatal(err)
	}
	var objPath string
	for p := range files {
		if p != indexFile {
			objPath = p
			break
		}
	}
	f.Add(files[indexFile], files[objPath])
	f.Add([]byte(`{"schemaVersion": 2}`), []byte(`{}`))
	f.Add([]byte(`{"schemaVersion": 1, "environment": "staging", "objects": [{"id": {"kind": "K", "name": "n"}, "path": "../../x"}]}`), []byte(`{"schemaVersion":1}`))
	f.Add([]byte(`{"schemaVersion": -1}`), []byte(`null`))
	f.Add([]byte(`{"schemaVersion": 1e400}`), []byte(`[`))
	f.Fuzz(func(t *testing.T, index, object []byte) {
		in := newFolder()
		for p, b := range files {
			switch p {
			case indexFile:
				b = index
			case objPath:
				b = object
			}
			in.add(p, b)
		}
		in.wait()
		got, err := decodeFolder("staging", in)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.File == "" {
				t.Fatalf("error names no file: %v", err)
			}
			return
		}
		if len(got.Objects) != len(got.Index.Objects) {
			t.Fatalf("%d objects for %d index entries", len(got.Objects), len(got.Index.Objects))
		}
		for _, ie := range got.Index.Objects {
			if e := got.Objects[ie.ID]; e == nil || e.ID != ie.ID {
				t.Fatalf("index lists %s but the snapshot holds %v", ie.ID, e)
			}
			// A file that passed the read decodes when it is used.
			if _, err := got.Entry(ie.ID); err != nil {
				t.Fatalf("%s: read, then not decodable: %v", ie.ID, err)
			}
		}
	})
}
