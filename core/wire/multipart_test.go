package wire

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// stdParts reads a multipart body with Go's own reader (raw parts: no
// quoted-printable decoding), for comparison; ok is false when it refuses
// the body.
func stdParts(body []byte, boundary string) ([]Part, bool) {
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var out []Part
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return out, true
		}
		if err != nil {
			return nil, false
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return nil, false
		}
		out = append(out, Part{Header: Header(p.Header), Body: b})
	}
}

func ourParts(body []byte, boundary string) ([]Part, error) {
	r := NewPartReader(body, boundary)
	var out []Part
	for len(out) <= 1000 {
		p, done, err := r.Next()
		if err != nil {
			return nil, err
		}
		if done {
			return out, nil
		}
		out = append(out, p)
	}
	return out, nil
}

var multipartSeeds = []string{
	"--b\r\nContent-Type: application/http\r\n\r\nGET /t HTTP/1.1\r\n\r\n\r\n--b--\r\n",
	"preamble\r\n--b\r\nA: 1\r\n\r\nx\r\n--b\r\nB: 2\r\n\r\n\r\n--b--",
	"--b\nA: 1\n\nbody\n--b--\n",
	"--b \t\r\nA:  spaced  \r\n folded\r\n\r\n--bx\r\n--b--\r\n",
	"--b\r\n\r\n--b\r\n\r\n--b--\r\n",
	"--b\r\nA: 1\r\n\r\nno close",
	"--b\r\nbad line\r\n\r\n--b--\r\n",
	"--b\r\nA: 1\r\n\r\nx\r\n--b--\n",
	"--b\r\nA: 1\r\n\r\nx\r\njunk\r\n--b--\r\n",
	"--b\r\nContent-Type: a\r\n\r\nx\r\n--b\r\nContent-Type: a\r\n\r\ny\r\n--b\r\nContent-Type: a\r\nContent-Type: b\r\n\r\nz\r\n--b\r\nContent-Type: a\r\n\r\n--b--\r\n",
	"--b\r\ncontent-type: a\r\n\r\n\r\n--b\r\ncontent-type: a\r\n\r\n--b\r\ncontent-type: a\r\n\r\n--b--",
}

// TestPartReaderMatchesGo: our reader frames the seeds as Go's
// mime/multipart does, parts and headers alike, and refuses what it refuses.
func TestPartReaderMatchesGo(t *testing.T) {
	for _, s := range multipartSeeds {
		comparePartReaders(t, []byte(s), "b")
	}
}

func comparePartReaders(t *testing.T, body []byte, boundary string) {
	t.Helper()
	want, ok := stdParts(body, boundary)
	got, err := ourParts(body, boundary)
	if !ok {
		return // only acceptance is compared: we may refuse more (see FuzzPartReader)
	}
	if err != nil {
		t.Fatalf("%q: refused (%v), Go reads %d parts", body, err, len(want))
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d parts, Go %d", body, len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i].Body, want[i].Body) {
			t.Fatalf("%q part %d: body %q, Go %q", body, i, got[i].Body, want[i].Body)
		}
		if len(got[i].Header)+len(want[i].Header) > 0 && !reflect.DeepEqual(got[i].Header, want[i].Header) {
			t.Fatalf("%q part %d: header %q, Go %q", body, i, got[i].Header, want[i].Header)
		}
	}
}

// FuzzPartReader: whatever Go's reader accepts, ours reads the same parts
// from; ours accepts nothing Go refuses, and never reads past its bounds.
func FuzzPartReader(f *testing.F) {
	for _, s := range multipartSeeds {
		f.Add(s, "b")
	}
	f.Fuzz(func(t *testing.T, body, boundary string) {
		if boundary == "" || strings.ContainsAny(boundary, "\r\n") {
			return
		}
		comparePartReaders(t, []byte(body), boundary)
		compareTextPartReader(t, body, boundary)
		if _, err := ourParts([]byte(body), boundary); err == nil {
			if _, ok := stdParts([]byte(body), boundary); !ok {
				t.Fatalf("%q: accepted what Go refuses", body)
			}
		}
	})
}

// TestPartWriterMatchesGo: the writer lays parts out byte for byte as Go's
// multipart.Writer does.
func TestPartWriterMatchesGo(t *testing.T) {
	var std bytes.Buffer
	mw := multipart.NewWriter(&std)
	mw.SetBoundary("changeset_1")
	for _, body := range []string{"GET / HTTP/1.1\r\n\r\n", "{}"} {
		h := http.Header{}
		h.Set("Content-Transfer-Encoding", "binary")
		h.Set("Content-Type", "application/http")
		p, _ := mw.CreatePart(map[string][]string(h))
		p.Write([]byte(body))
	}
	mw.Close()
	w := PartWriter{Boundary: "changeset_1"}
	for _, body := range []string{"GET / HTTP/1.1\r\n\r\n", "{}"} {
		w.Part([2]string{"Content-Transfer-Encoding", "binary"}, [2]string{"Content-Type", "application/http"})
		w.B = append(w.B, body...)
	}
	w.Close()
	if string(w.B) != std.String() {
		t.Fatalf("wrote\n%q\nGo writes\n%q", w.B, std.String())
	}
}

// compareTextPartReader checks that reading with the body's text gives the
// byte reader's parts, each with its content as Text, and so does a text
// reader in ContentTypeOnly mode, with the Content-Type the byte reader's
// header holds.
func compareTextPartReader(t *testing.T, body, boundary string) {
	t.Helper()
	compareTextReaders(t, body, boundary, false)
	compareTextReaders(t, body, boundary, true)
}

func compareTextReaders(t *testing.T, body, boundary string, typeOnly bool) {
	t.Helper()
	b, tr := NewPartReader([]byte(body), boundary), NewTextPartReader([]byte(body), body, boundary)
	if typeOnly {
		tr.ContentTypeOnly()
	}
	for range 1001 {
		p, done, err := b.Next()
		q, tdone, terr := tr.Next()
		if done != tdone || (err == nil) != (terr == nil) {
			t.Fatalf("%q: text reader (%v, %v), byte reader (%v, %v)", body, tdone, terr, done, err)
		}
		if done || err != nil {
			return
		}
		header, ct := p.Header, ""
		if typeOnly {
			header, ct = nil, p.Header.Get("Content-Type")
		}
		if !reflect.DeepEqual(header, q.Header) || q.ContentType != ct || !bytes.Equal(p.Body, q.Body) || q.Text != string(q.Body) {
			t.Fatalf("%q: text reader's part %q %q %q %q, byte reader's %q %q", body, q.Header, q.ContentType, q.Body, q.Text, p.Header, p.Body)
		}
	}
}
