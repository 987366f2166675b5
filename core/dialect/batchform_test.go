package dialect

import (
	"bytes"
	"strings"
	"testing"
)

func TestAzuriteBoundaries(t *testing.T) {
	for _, c := range []struct{ body, batch, changeset string }{
		{"--batch_fakeId\r\ncontent-type: multipart/mixed; boundary=changeset_fakeId\r\n", "batchresponse_fakeId", "changesetresponse_fakeId"},
		{"--batch_3a28-4842-40cb\r\nContent-Type: multipart/mixed; boundary=changeset_feec-ca40\r\n\r\n--changeset_feec-ca40--", "batchresponse_3a28-4842-40cb", "changesetresponse_feec-ca40"},
		{"--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n", "", "cs"},     // no --batch_: Azurite fails (F-AZURITE-BATCH-500)
		{"--batch_--batch_x-y--\r\n", "batchresponse_x-y-", ""},                 // (\w+-?)+ keeps one trailing '-'
		{"--batch_\r\n--batch_ok", "batchresponse_ok", ""},                      // the first delimiter followed by a word
		{"boundary=changeset_changeset_1", "", "changesetresponse_changeset_1"}, // only the first "changeset" renamed
	} {
		b, cs := azuriteBoundaries([]byte(c.body))
		if b != c.batch || cs != c.changeset {
			t.Errorf("azuriteBoundaries(%q) = %q, %q; want %q, %q", c.body, b, cs, c.batch, c.changeset)
		}
	}
}

// FuzzAzuriteBoundaries holds the boundary scan to its form: what it finds
// is word characters with single dashes, found in the body as written.
func FuzzAzuriteBoundaries(f *testing.F) {
	f.Add([]byte("--batch_fakeId\r\ncontent-type: multipart/mixed; boundary=changeset_fakeId\r\n"))
	f.Add([]byte("--batch_--batch_a--b-c\r\nboundary=-x"))
	f.Fuzz(func(t *testing.T, body []byte) {
		id := azuriteBatchID(body)
		if id != "" && !bytes.Contains(body, []byte("--batch_"+id)) {
			t.Fatalf("id %q is not in the body", id)
		}
		if strings.Contains(id, "--") || strings.HasPrefix(id, "-") {
			t.Fatalf("id %q breaks (\\w+-?)+", id)
		}
		for _, c := range []byte(id) {
			if c != '-' && !isWord(c) {
				t.Fatalf("id %q holds %q", id, c)
			}
		}
		azuriteBoundaries(body)
	})
}
