package rest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/profile"
)

// azuriteTranscripts lists the `# azurite:` recordings (testdata/azurite,
// written by TestRecordAzurite from the transcripts of the same name) that
// the azurite-3.37 profile answers byte for byte; a file there not listed
// fails TestAzuriteTranscripts. The other transcripts are left out because
// Azurite answers them in ways the profile does not copy (docs/fidelity.md:
// F-AZURITE-PROPERTY-ORDER for upsert, update-merge-delete, prefer-update
// and batch-go-mixed; F-AZURITE-BATCH-ANSWER for batch-single-get;
// F-AZURITE-LAX-VALUES for insert-entity-string-typed, error-cases and
// query-thin-evidence; F-AZURITE-TOKENS for query-tables-paged;
// F-AZURITE-XML for cors, service-properties, table-acl and table-acl-js).
var azuriteTranscripts = []string{
	"batch-table-not-found",
	"batch-single-delete-2025",
	"batch-go-error",
	"create-table",
	"create-table-no-content",
	"create-table-conflict",
	"create-table-invalid-name",
	"get-and-delete-table",
	"insert-entity-go-edm",
	"insert-entity-no-content",
	"query-select",
	"query-continuation",
	"batch-empty-changeset",
	"batch-legacy-lf-relative",
	"batch-precedence",
	"get-entity-metadata-levels",
	"query-filter-syntax-error",
}

// TestAzuriteTranscripts replays every `# azurite:` recording under the
// azurite-3.37 profile and compares the answers, masked as the recordings
// are (azurite_mask_test.go), byte for byte.
func TestAzuriteTranscripts(t *testing.T) {
	dir := filepath.Join("testdata", "azurite")
	listed := map[string]bool{}
	for _, name := range azuriteTranscripts {
		listed[name+".txt"] = true
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, name+".txt"))
			if err != nil {
				t.Fatalf("missing recording: %v", err)
			}
			comment, exchanges := parseTranscript(t, string(raw))
			if !strings.HasPrefix(comment, azuriteHeader(name)) {
				t.Fatalf("the header is not the recorder's:\n%s", comment)
			}
			h := handlerAt(profile.Azurite337(), replayClock)
			seen := map[string]string{}
			for i, ex := range exchanges {
				// The store keeps ETags distinct by adding a tick per write
				// within one instant; the mask folds those ticks into the
				// fixed instant, as Azurite's own times are.
				got := maskIDs(maskTimes(maskFraming(replay(t, h, ex.request)), replayClock, replayClock.Add(time.Second), replayClock), seen)
				if got != ex.response {
					t.Errorf("exchange %d (%s):\n--- got\n%s\n--- want\n%s", i+1, strings.SplitN(ex.request, "\n", 2)[0], got, ex.response)
				}
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !listed[e.Name()] {
			t.Errorf("recording %s is not listed in azuriteTranscripts", e.Name())
		}
	}
}
