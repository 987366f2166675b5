// Command liverecordings converts recordings of the live Azure Table
// service, one JSON file per recorded SDK test (source, test, origin,
// recorder, apiVersion, recordedAt, notes, setup, exchanges), into the
// compact text files core/rest replays (TestLiveRecordings): one file per
// test, its origin in the header, each request and response as recorded.
// Nothing is normalized here; the replayer states and does that, so a file
// reads as the recording it came from.
//
//	go run ./scripts/liverecordings RECORDINGS_DIR [OUT_DIR]
//
// RECORDINGS_DIR holds one folder per source (go-aztables, …) of JSON files;
// OUT_DIR defaults to core/rest/testdata/live. Files are rewritten, never
// merged; a body that would break the format is an error.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type recording struct {
	Source string `json:"source"`
	Test   string `json:"test"`
	Origin struct {
		Repo   string `json:"repo"`
		Path   string `json:"path"`
		Commit string `json:"commit"`
	} `json:"origin"`
	Recorder   string     `json:"recorder"`
	APIVersion string     `json:"apiVersion"`
	RecordedAt string     `json:"recordedAt"`
	Notes      []string   `json:"notes"`
	Setup      []exchange `json:"setup"`
	Exchanges  []exchange `json:"exchanges"`
}

type exchange struct {
	Request   message  `json:"request"`
	Response  *message `json:"response"`
	Synthetic bool     `json:"synthetic"`
}

type message struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    *string           `json:"body"`
	Auth    string            `json:"auth"`
}

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/liverecordings RECORDINGS_DIR [OUT_DIR]")
		os.Exit(2)
	}
	out := filepath.Join("core", "rest", "testdata", "live")
	if len(os.Args) == 3 {
		out = os.Args[2]
	}
	n, err := convertAll(os.Args[1], out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "liverecordings:", err)
		os.Exit(1)
	}
	fmt.Printf("%d recordings written to %s\n", n, out)
}

// convertAll converts every <source>/<test>.json under dir.
func convertAll(dir, out string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("no <source>/<test>.json files under %s", dir)
	}
	sort.Strings(files)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		var r recording
		if err := json.Unmarshal(raw, &r); err != nil {
			return 0, fmt.Errorf("%s: %w", f, err)
		}
		text, err := render(r)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", f, err)
		}
		dst := filepath.Join(out, filepath.Base(filepath.Dir(f)), strings.TrimSuffix(filepath.Base(f), ".json")+".txt")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}

// render writes one recording: a "# " header, then "--- setup" (synthetic,
// never compared), "--- request" and "--- response STATUS" blocks, each a
// start line (requests), header lines, an empty line and the body as
// recorded, followed by one newline.
func render(r recording) (string, error) {
	if r.Source == "" || r.Test == "" || r.Origin.Repo == "" || r.Origin.Commit == "" {
		return "", errors.New("source, test and origin are required")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# live: %s %s\n", r.Source, r.Test)
	fmt.Fprintf(&b, "# origin: %s %s @ %s\n", r.Origin.Repo, r.Origin.Path, r.Origin.Commit)
	fmt.Fprintf(&b, "# recorder: %s; x-ms-version %s; recorded %s\n", r.Recorder, r.APIVersion, r.RecordedAt)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "# note: %s\n", oneLine(n))
	}
	for _, s := range r.Setup {
		if !s.Synthetic {
			return "", errors.New("a setup request not marked synthetic")
		}
		if err := block(&b, "--- setup", s.Request, true); err != nil {
			return "", err
		}
	}
	for i, e := range r.Exchanges {
		marker := "--- request"
		if e.Request.Auth != "" {
			marker += " auth=" + e.Request.Auth
		}
		if e.Response == nil {
			return "", fmt.Errorf("exchange %d has no response", i+1)
		}
		if err := block(&b, marker, e.Request, true); err != nil {
			return "", err
		}
		if err := block(&b, fmt.Sprintf("--- response %d", e.Response.Status), *e.Response, false); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// block writes one message under its marker line.
func block(b *strings.Builder, marker string, m message, request bool) error {
	b.WriteString(marker + "\n")
	if request {
		if m.Method == "" || !strings.HasPrefix(m.Path, "/") || strings.ContainsAny(m.Path, "\r\n") {
			return fmt.Errorf("request %q %q", m.Method, m.Path)
		}
		fmt.Fprintf(b, "%s %s\n", m.Method, m.Path)
	}
	keys := make([]string, 0, len(m.Headers))
	for k := range m.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := m.Headers[k]
		if strings.ContainsAny(k+v, "\r\n") || strings.Contains(k, ":") {
			return fmt.Errorf("header %q: %q", k, v)
		}
		fmt.Fprintf(b, "%s: %s\n", k, v)
	}
	b.WriteString("\n")
	if m.Body != nil {
		if strings.Contains(*m.Body, "\n--- ") || strings.HasPrefix(*m.Body, "--- ") {
			return errors.New("a body holds a line starting with \"--- \"")
		}
		b.WriteString(*m.Body)
	}
	b.WriteString("\n")
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
