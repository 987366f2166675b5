package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/core/rest"
)

// cosmosNamesScript runs, through the Python SDK, the life of the tables
// my_table and 啊齄丂狛狜 (the names of the SDK's test_table_cosmos
// underscore and unicode cases): with MODE=write it creates them, writes,
// queries and deletes an entity and leaves one, and tries a#b, which
// Cosmos refuses too; with MODE=read it lists
// them and reads the entity left, then deletes the tables. Each step
// prints one line, or the error the SDK raised.
const cosmosNamesScript = `import os
from azure.data.tables import TableServiceClient
conn = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + os.environ["KEY"] + ";TableEndpoint=" + os.environ["URL"] + "/devstoreaccount1;"
svc = TableServiceClient.from_connection_string(conn, retry_total=0)
names = ("my_table", "\u554a\u9f44\u4e02\u72db\u72dc")
if os.environ["MODE"] == "write":
    names += ("a#b",)
for name in names:
    try:
        if os.environ["MODE"] == "write":
            tc = svc.create_table(name)
            print("created", tc.table_name == name)
            tc.create_entity({"PartitionKey": "p", "RowKey": "gone", "v": 1})
            tc.upsert_entity({"PartitionKey": "p", "RowKey": "kept", "v": 2})
            print("query", sorted(e["RowKey"] for e in tc.query_entities("PartitionKey eq 'p'")))
            tc.delete_entity("p", "gone")
            print("after delete", [e["RowKey"] for e in tc.list_entities()])
        else:
            print("listed", name in [t.name for t in svc.list_tables()])
            print("read", svc.get_table_client(name).get_entity("p", "kept")["v"])
            svc.delete_table(name)
            print("deleted", name not in [t.name for t in svc.list_tables()])
    except Exception as err:
        # The SDK raises its ValueError while handling the service's answer.
        cause = getattr(err.__context__, "status_code", None)
        print("error", type(err).__name__, cause, str(err).split(",")[0])
`

// runCosmosNames runs cosmosNamesScript against c in mode.
func runCosmosNames(t *testing.T, python string, c *child, mode string) string {
	t.Helper()
	cmd := exec.Command(python, "-c", cosmosNamesScript)
	cmd.Env = append(os.Environ(), "URL="+c.url, "KEY="+rest.WellKnownKey, "MODE="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

// TestCosmosTableNamesThroughPython: under --profile cosmos the names
// Cosmos creates and Storage refuses, one with an underscore and one in
// CJK, are created, written, queried and deleted through the Python SDK,
// and a data directory keeps them across a restart
// (F-COSMOS-TABLE-NAMES); under the azure profile the same creations are
// the SDK's Storage table-name error.
func TestCosmosTableNamesThroughPython(t *testing.T) {
	python := "/usr/bin/python3"
	if exec.Command(python, "-c", "import azure.data.tables").Run() != nil {
		requireAll(t, python+" cannot import azure.data.tables: apt-get install python3-azure")
	}
	data := filepath.Join(t.TempDir(), "data")
	c := startChild(t, nil, "--data", data, "--profile", "cosmos")
	out := runCosmosNames(t, python, c, "write")
	c.stop(t)
	want := strings.Repeat("created True\nquery ['gone', 'kept']\nafter delete ['kept']\n", 2) +
		"error ValueError 400 Cosmos table names must contain from 1-255 characters\n"
	if out != want {
		t.Errorf("cosmos, writing:\n%s\nwant\n%s", out, want)
	}
	c = startChild(t, nil, "--data", data, "--profile", "cosmos")
	out = runCosmosNames(t, python, c, "read")
	c.stop(t)
	if want := strings.Repeat("listed True\nread 2\ndeleted True\n", 2); out != want {
		t.Errorf("cosmos, after a restart:\n%s\nwant\n%s", out, want)
	}

	c = startChild(t, nil, "--in-memory")
	defer c.stop(t)
	out = runCosmosNames(t, python, c, "write")
	want = strings.Repeat("error ValueError 400 Storage table names must be alphanumeric\n", 3)
	if out != want {
		t.Errorf("azure:\n%s\nwant\n%s", out, want)
	}
}
