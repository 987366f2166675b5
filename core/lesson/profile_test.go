package lesson

import (
	"strings"
	"testing"
)

// TestStepProfile: a step with a profile is answered as that profile, on a
// copy of the account, which the next step does not see.
func TestStepProfile(t *testing.T) {
	l, err := Parse([]byte(`{"id":"profiled","order":99,"title":"t","line":"l","summary":"s",
	 "section":{"title":"s","url":"https://learn.microsoft.com/"},
	 "start":{"format":"tableplay-account","version":1,"tables":[{"name":"People","created":"2026-01-01T00:00:00.0000000Z","entities":[]}]},
	 "steps":[
	  {"title":"a","text":"a","explain":"{status}","operation":{"kind":"createTable","table":"people"},"profile":"cosmos","expect":{"status":201}},
	  {"title":"b","text":"b","explain":"{status}","operation":{"kind":"createTable","table":"people"},"expect":{"status":409,"code":"TableAlreadyExists"}},
	  {"title":"c","text":"c","explain":"{status}","operation":{"kind":"createTable","table":"people"},"profile":"cosmos","expect":{"status":201}},
	  {"title":"d","text":"d","explain":"{status}","operation":{"kind":"getTable","table":"People"},"profile":"azurite-3.37","expect":{"status":200}}
	 ]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := newSession()
	if err := s.Start(l); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"cosmos", "", "cosmos", "azurite-3.37"} {
		r := s.Run(i)
		if !r.OK || r.Profile != want {
			t.Errorf("step %d: ok %v, profile %q (want %q): %v %s", i+1, r.OK, r.Profile, want, r.Diffs, r.Error)
		}
	}
	// Step 3 found the account without step 1's table; step 4's answer is Azurite's.
	if r := s.Run(3); !strings.Contains(headerOf(r, "Server"), "Azurite") {
		t.Errorf("step 4 answered by %q", headerOf(r, "Server"))
	}
	if snap := string(s.Store.Snapshot()); strings.Contains(snap, `"people"`) || !strings.Contains(snap, `"People"`) {
		t.Errorf("the account after the profiled steps: %s", snap)
	}
}

func headerOf(r Result, name string) string {
	if r.Response == nil {
		return ""
	}
	return header(*r.Response, name)
}
