package rest_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/core/resthttp"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the responses of the snapshot transcripts in testdata/transcripts (never in CI; live ones are never rewritten)")

// transcripts lists every golden transcript; a file not listed, or listed
// but missing, fails TestTranscripts. Each file is a sequence of exchanges
// replayed in order against a fresh, deterministic server (fixed clock,
// counting request ids); the responses must match byte for byte.
//
// A file's first line says what its responses are. "# live: <recording>"
// files hold the live service's answers from that recording, normalized as
// their "# normalized:" line states; they are evidence, so -update never
// rewrites them (a difference is a fidelity bug or a hand edit to review).
// "# snapshot: …" files hold tableplay's own answers to cases no recording
// covers (house decisions, see docs/fidelity.md); -update may rewrite those.
var transcripts = []string{
	"create-table",
	"create-table-no-content",
	"create-table-conflict",
	"create-table-invalid-name",
	"get-and-delete-table",
	"query-tables-paged",
	"insert-entity-go-edm",
	"insert-entity-no-content",
	"insert-entity-string-typed",
	"get-entity-metadata-levels",
	"query-select",
	"query-filter-syntax-error",
	"query-continuation",
	"query-thin-evidence",
	"update-merge-delete",
	"upsert",
	"prefer-update",
	"error-cases",
	"batch-go-mixed",
	"batch-go-error",
	"batch-table-not-found",
	"batch-single-delete-2025",
	"batch-legacy-lf-relative",
	"batch-single-get",
	"batch-empty-changeset",
	"batch-precedence",
	// Cosmos DB for Table's answers, replayed under the cosmos profile
	// (a "# profile: cosmos" line; docs/profiles.md).
	"cosmos-go-insert-twice",
	"cosmos-go-merge-missing",
	"cosmos-go-invalid-entity",
	"cosmos-go-continuation-filter",
	"cosmos-go-list-tables",
	"cosmos-py-decode-basic",
	"cosmos-py-insert-dictionary",
	"table-acl",
	"table-acl-js",
	"service-properties",
	"cors",
}

// exchange is one request and its expected response in a transcript.
type exchangeText struct {
	request, response string
}

const (
	reqMarker  = "--- request\n"
	respMarker = "--- response\n"
)

// parseTranscript splits a file into its comment and exchanges.
func parseTranscript(t *testing.T, text string) (string, []exchangeText) {
	t.Helper()
	first := strings.Index(text, reqMarker)
	if first < 0 {
		t.Fatal("no request in transcript")
	}
	comment := text[:first]
	var out []exchangeText
	// Each exchange is written as request, "\n", response, "\n": splitting on
	// "\n--- request\n" takes the response's trailing newline, except at the end.
	chunks := strings.Split(strings.TrimSuffix(text[first+len(reqMarker):], "\n"), "\n"+reqMarker)
	for _, chunk := range chunks {
		req, resp, _ := strings.Cut(chunk, "\n"+respMarker)
		out = append(out, exchangeText{request: req, response: resp})
	}
	return comment, out
}

// replay sends one request text to the handler and renders the response.
func replay(t *testing.T, h http.Handler, reqText string) string {
	t.Helper()
	head, body, _ := strings.Cut(reqText, "\n\n")
	br := bufio.NewReader(strings.NewReader(strings.ReplaceAll(head, "\n", "\r\n") + "\r\n\r\n"))
	req, err := http.ReadRequest(br)
	if err != nil {
		t.Fatalf("request %q: %v", head, err)
	}
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Host = "127.0.0.1:10002"
	req.RequestURI = ""
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return renderResponse(rec.Result())
}

// renderResponse reads r's body and writes r as a transcript holds it.
func renderResponse(r *http.Response) string {
	body, _ := io.ReadAll(r.Body)
	return transcript.Response(r, body)
}

// replayClock is the fixed time of every replay.
var replayClock = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// deterministicHandler has a fixed clock and counting request ids.
func deterministicHandler() http.Handler {
	return handlerAt(profile.Default(), replayClock)
}

// handlerAt is an account answering as p with its clock stopped at at and
// counting request ids.
func handlerAt(p profile.Profile, at time.Time) http.Handler {
	clock := func() time.Time { return at }
	n := 0
	ids := func() string {
		n++
		return fmt.Sprintf("00000000-0000-0000-0000-%012d", n)
	}
	creds := rest.WellKnown()
	creds.AllowUnsigned = true
	creds.TrustUnsigned = true // the recorded requests were signed; their signatures are not replayed
	st := store.New(store.Options{Clock: clock, Profile: p})
	return resthttp.New(rest.New(rest.Options{Store: st, Credentials: creds, Clock: clock, RequestID: ids}))
}

func TestTranscripts(t *testing.T) {
	dir := filepath.Join("testdata", "transcripts")
	listed := map[string]bool{}
	for _, name := range transcripts {
		listed[name+".txt"] = true
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name+".txt")
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("missing transcript: %v", err)
			}
			comment, exchanges := parseTranscript(t, string(raw))
			live, err := transcriptKind(comment)
			if err != nil {
				t.Fatal(err)
			}
			prof, err := transcriptProfile(comment)
			if err != nil {
				t.Fatal(err)
			}
			h := deterministicHandler()
			if !prof.IsAzure() {
				h = profileHandler(prof)
			}
			asSets := strings.Contains(comment, "(# compare: table lists as sets)")
			var out bytes.Buffer
			out.WriteString(comment)
			for i, ex := range exchanges {
				got := replay(t, h, ex.request)
				if asSets && sortedTableList(got) == sortedTableList(ex.response) {
					got = ex.response
				}
				if (live || !*update) && got != ex.response {
					t.Errorf("exchange %d (%s):\n--- got\n%s\n--- want\n%s", i+1, strings.SplitN(ex.request, "\n", 2)[0], got, ex.response)
				}
				out.WriteString(reqMarker + ex.request + "\n" + respMarker + got + "\n")
			}
			if *update && !live {
				if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
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
			t.Errorf("transcript %s is not listed in transcripts", e.Name())
		}
	}
}

// transcriptProfile reads a transcript's "# profile: <name>" line: the
// profile its exchanges are replayed under (azure when there is none).
func transcriptProfile(comment string) (profile.Profile, error) {
	for _, line := range strings.Split(comment, "\n") {
		if name, ok := strings.CutPrefix(line, "# profile: "); ok {
			p, ok := profile.ByName(name)
			if !ok {
				return p, fmt.Errorf("unknown profile %q", name)
			}
			return p, nil
		}
	}
	return profile.Default(), nil
}

// profileHandler is deterministicHandler for another profile, its clock at
// 2026-11-22T12:00:00.1234567Z: the recorded instants have seven
// fractional digits, and so the normalized ones do.
func profileHandler(p profile.Profile) http.Handler {
	return handlerAt(p, time.Date(2026, 11, 22, 12, 0, 0, 123456700, time.UTC))
}

// sortedTableList returns a response with the entries of its table
// listing's value array sorted, so that two listings of the same tables in
// another order compare equal (F-COSMOS-TABLE-ORDER); other responses are
// returned as they are.
func sortedTableList(resp string) string {
	const open = `{"value":[`
	i := strings.Index(resp, open)
	if i < 0 {
		return resp
	}
	rest := resp[i+len(open):]
	j := strings.Index(rest, "]")
	if j < 0 {
		return resp
	}
	entries := strings.Split(rest[:j], ",")
	sort.Strings(entries)
	return resp[:i+len(open)] + strings.Join(entries, ",") + rest[j:]
}

// transcriptKind reads a transcript's header: live (read-only evidence, with
// its normalization stated) or snapshot.
func transcriptKind(comment string) (live bool, err error) {
	switch {
	case strings.HasPrefix(comment, "# live: "):
		if !strings.Contains(comment, "\n# normalized: ") {
			return true, fmt.Errorf("a live transcript must state its normalization in a \"# normalized:\" line")
		}
		return true, nil
	case strings.HasPrefix(comment, "# snapshot: "):
		return false, nil
	}
	return false, fmt.Errorf("the first line must start with \"# live: \" or \"# snapshot: \"")
}

// TestCosmosTranscriptsNeedTheProfile replays every cosmos transcript under
// the default azure profile: each must then differ somewhere, or its
// replay under the cosmos profile would prove nothing about the profile.
func TestCosmosTranscriptsNeedTheProfile(t *testing.T) {
	n := 0
	for _, name := range transcripts {
		raw, err := os.ReadFile(filepath.Join("testdata", "transcripts", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		comment, exchanges := parseTranscript(t, string(raw))
		if p, err := transcriptProfile(comment); err != nil || p.Name != "cosmos" {
			continue
		}
		n += len(exchanges)
		h := deterministicHandler()
		differ := 0
		for _, ex := range exchanges {
			if replay(t, h, ex.request) != ex.response {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: every exchange answers the same under the azure profile", name)
		}
	}
	if n < 40 {
		t.Errorf("%d recorded Cosmos exchanges, want at least 40", n)
	}
}
