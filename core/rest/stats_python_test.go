package rest_test

import (
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/need"
)

// TestStatsAccountRepeatedOnTheSecondary: path-style, the Python SDK sends
// its stats request to /{account}-secondary/{account}/, signed for the
// primary's /{account}/; it is the secondary's service root and is answered
// as /{account}-secondary/ is, while a repeated account on the primary, or
// another path on the secondary, still names no service (F-STATS-SECONDARY).
func TestStatsAccountRepeatedOnTheSecondary(t *testing.T) {
	f := newFixture(t)
	// get sends GET path?restype=service&comp=stats signed for signed.
	get := func(path, signed string) (int, string) {
		t.Helper()
		r, err := http.NewRequest("GET", f.srv.URL+path+"?restype=service&comp=stats", nil)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Now().UTC().Format(http.TimeFormat)
		r.Header.Set("x-ms-date", d)
		r.Header.Set("x-ms-version", "2019-02-02")
		u := *r.URL
		u.Path = signed
		r.Header.Set("Authorization", rest.WellKnown().Sign(d, &u))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	acct := rest.WellKnownAccount
	sec, twice := "/"+acct+"-secondary/", "/"+acct+"-secondary/"+acct+"/"
	for _, c := range [][2]string{{sec, sec}, {twice, twice}, {twice, "/" + acct + "/"}} {
		code, body := get(c[0], c[1])
		if code != 200 || !strings.Contains(body, "<GeoReplication><Status>live</Status><LastSyncTime>") {
			t.Errorf("GET %s signed for %s: %d %s", c[0], c[1], code, body)
		}
	}
	if code, body := get(twice, "/"+acct+"/x/"); code != 403 {
		t.Errorf("signed for another path: %d %s", code, body)
	}
	if code, body := get("/"+acct+"/"+acct+"/", "/"+acct+"/"+acct+"/"); code != 400 {
		t.Errorf("the account repeated on the primary: %d %s", code, body)
	}
	if code, body := get(twice+"x/", twice+"x/"); code == 200 {
		t.Errorf("a longer path on the secondary: %d %s", code, body)
	}
}

// TestPythonSDKStats runs azure-data-tables' get_service_stats (Debian's
// python3-azure) against the server path-style, as the SDK's own suite
// does against the emulator.
func TestPythonSDKStats(t *testing.T) {
	if exec.Command("/usr/bin/python3", "-c", "import azure.data.tables").Run() != nil {
		need.Missing(t, "azure.data.tables for /usr/bin/python3", "apt-get install python3-azure runs this test")
	}
	f := newFixture(t)
	script := `import sys
from azure.data.tables import TableServiceClient
conn = "DefaultEndpointsProtocol=http;AccountName=` + rest.WellKnownAccount + `;AccountKey=` + rest.WellKnownKey + `;TableEndpoint=" + sys.argv[1] + "/` + rest.WellKnownAccount + `;"
stats = TableServiceClient.from_connection_string(conn, retry_total=0).get_service_stats()
print(stats["geo_replication"]["status"], stats["geo_replication"]["last_sync_time"] is not None)
`
	out, err := exec.Command("/usr/bin/python3", "-c", script, f.srv.URL).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.TrimSpace(string(out)) != "live True" {
		t.Errorf("get_service_stats printed %q", out)
	}
}
