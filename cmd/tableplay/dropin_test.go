package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tableplay/tableplay/core/rest"
	"github.com/tableplay/tableplay/internal/sdktest"
	"software.sslmate.com/src/go-pkcs12"
)

// testCert makes a self-signed certificate (its own CA) for 127.0.0.1,
// localhost and *.table.localhost, written as cert.pem and key.pem, and as
// a PFX (AES-256, as OpenSSL 3 writes one) with the password "pfx-pass".
func testCert(t *testing.T) (dir string, pool *x509.CertPool) {
	t.Helper()
	dir = t.TempDir()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tableplay test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost", "*.table.localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	kb, _ := x509.MarshalPKCS8PrivateKey(key)
	os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600)
	pfx, err := pkcs12.Modern.Encode(key, cert, nil, "pfx-pass")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cert.pfx"), pfx, 0o600)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return dir, pool
}

// secondKey is the second account's key in the SDK tests.
const secondKey = "c2Vjb25kLWFjY291bnQta2V5LW1hZGUtZm9yLXRoZS10ZXN0cw=="

// TestDropInOverHTTPS runs the Python and JavaScript SDKs against one
// server with HTTPS (a PEM certificate made here), bearer tokens and two
// accounts: Shared Key, a spr=https SAS, tokens of each role and refused
// ones, the second account's own tables and key, and a product-style URL.
func TestDropInOverHTTPS(t *testing.T) {
	python := os.Getenv("TABLEPLAY_PYTHON")
	if python == "" {
		python = "/usr/bin/python3"
	}
	if exec.Command(python, "-c", "import azure.data.tables").Run() != nil {
		requireAll(t, python+" cannot import azure.data.tables: apt-get install python3-azure")
	}
	modules, _ := filepath.Abs(filepath.Join("..", "..", "node_modules"))
	if _, err := os.Stat(filepath.Join(modules, "@azure", "data-tables")); err != nil {
		requireAll(t, "node_modules/@azure/data-tables is missing: npm ci")
	}
	dir, _ := testCert(t)
	c := startChild(t, nil, "--in-memory", "--cert", filepath.Join(dir, "cert.pem"), "--key", filepath.Join(dir, "key.pem"),
		"--oauth", "basic", "--account", rest.WellKnownAccount+":"+rest.WellKnownKey, "--account", "second:"+secondKey)
	defer c.stop(t)
	if !strings.HasPrefix(c.url, "https://127.0.0.1:") {
		t.Fatalf("url %q", c.url)
	}
	for len(c.lines) < 7 {
		c.lines = append(c.lines, <-c.more)
	}
	if all := strings.Join(c.lines, "\n"); !strings.Contains(all, "WITHOUT checking their signature") ||
		!strings.Contains(all, "AccountName=second;AccountKey="+secondKey+";TableEndpoint="+c.url+"/second;") {
		t.Errorf("start lines:\n%s", all)
	}
	port := c.url[strings.LastIndex(c.url, ":")+1:]
	env := append(os.Environ(), "REQUESTS_CA_BUNDLE="+filepath.Join(dir, "cert.pem"), "NODE_EXTRA_CA_CERTS="+filepath.Join(dir, "cert.pem"),
		"NODE_PATH="+modules, "URL="+c.url, "PORT="+port, "KEY="+rest.WellKnownKey, "KEY2="+secondKey)
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	py := run("python", python, "-c", pythonHTTPS)
	for _, w := range []string{
		"shared key: secure 1",
		"sas https: 1",
		"token contributor: bytoken 2",
		"token reader reads: 2",
		"token reader writes: 403 AuthorizationPermissionMismatch",
		"token expired: 401 InvalidAuthenticationInfo",
		"token audience: 401 InvalidAuthenticationInfo",
		"second lists: mine",
		"second's key for devstoreaccount1: 403 AuthenticationFailed",
		"second reads devstoreaccount1's table: 403 AuthenticationFailed",
		"product-style: bytoken,secure",
		"bad name 1table insert:alphanumeric query:400 InvalidResourceName acl:alphanumeric batch:alphanumeric",
		"bad name aa insert:alphanumeric query:400 OutOfRangeInput acl:alphanumeric batch:alphanumeric",
		"bad name aaaaaaaa insert:alphanumeric query:400 OutOfRangeInput acl:alphanumeric batch:alphanumeric",
		"bad name my_table insert:alphanumeric query:400 InvalidResourceName acl:alphanumeric batch:alphanumeric",
	} {
		if !strings.Contains(py, w+"\n") {
			t.Errorf("python: missing %q in\n%s", w, py)
		}
	}
	js := run("node", "node", "-e", jsHTTPS)
	for _, w := range []string{"js shared key: 7", "js sas https: 7", "js second: 404 TableNotFound"} {
		if !strings.Contains(js, w+"\n") {
			t.Errorf("node: missing %q in\n%s", w, js)
		}
	}
}

// requireAll fails under make test (TABLEPLAY_REQUIRE_ALL) and skips
// otherwise.
func requireAll(t *testing.T, why string) {
	t.Helper()
	if v := os.Getenv("TABLEPLAY_REQUIRE_ALL"); v != "" && v != "0" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// pythonHTTPS is the Python SDK's side of TestDropInOverHTTPS.
const pythonHTTPS = `import base64, json, os, socket, time
from datetime import datetime, timedelta, timezone
from azure.core.credentials import AccessToken, AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableClient, TableServiceClient, TableSasPermissions, generate_table_sas
url, key, key2 = os.environ["URL"], os.environ["KEY"], os.environ["KEY2"]
def conn(account, k):
    return "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;TableEndpoint=%s/%s;" % (account, k, url, account)
def code(e):
    return "%d %s" % (e.status_code, getattr(e.error_code, "value", e.error_code))
svc = TableServiceClient.from_connection_string(conn("devstoreaccount1", key), retry_total=0)
svc.create_table("secure")
svc.get_table_client("secure").upsert_entity({"PartitionKey": "p", "RowKey": "r", "N": 1})
print("shared key: secure", svc.get_table_client("secure").get_entity("p", "r")["N"], flush=True)
sas = generate_table_sas(AzureNamedKeyCredential("devstoreaccount1", key), "secure", permission=TableSasPermissions(read=True),
                         expiry=datetime.now(timezone.utc) + timedelta(hours=1), protocol="https")
byssas = TableClient(url + "/devstoreaccount1", "secure", credential=AzureSasCredential(sas), retry_total=0)
print("sas https:", byssas.get_entity("p", "r")["N"], flush=True)
def b64(d):
    return base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()
class Token:
    def __init__(self, **claims):
        now = int(time.time())
        c = {"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/00000000-0000-0000-0000-000000000000/", "nbf": now - 60, "exp": now + 3600}
        c.update(claims)
        self.jwt = b64({"alg": "RS256", "typ": "JWT"}) + "." + b64(c) + ".c2lnbmF0dXJlLW5vdC1jaGVja2Vk"
        self.exp = c["exp"]
    def get_token(self, *scopes, **kwargs):
        return AccessToken(self.jwt, max(self.exp, int(time.time()) + 600))
def by_token(tok):
    return TableServiceClient(endpoint=url + "/devstoreaccount1", credential=tok, retry_total=0)
contrib = by_token(Token())
contrib.create_table("bytoken")
contrib.get_table_client("bytoken").upsert_entity({"PartitionKey": "p", "RowKey": "r", "N": 2})
print("token contributor: bytoken", contrib.get_table_client("bytoken").get_entity("p", "r")["N"], flush=True)
reader = by_token(Token(roles=["Storage Table Data Reader"]))
print("token reader reads:", reader.get_table_client("bytoken").get_entity("p", "r")["N"], flush=True)
try:
    reader.create_table("nope")
    print("token reader writes: created")
except HttpResponseError as e:
    print("token reader writes:", code(e), flush=True)
for name, tok in (("expired", Token(exp=int(time.time()) - 3600)), ("audience", Token(aud="https://vault.azure.net"))):
    try:
        list(by_token(tok).list_tables())
        print("token %s: answered" % name)
    except HttpResponseError as e:
        print("token %s:" % name, code(e), flush=True)
second = TableServiceClient.from_connection_string(conn("second", key2), retry_total=0)
second.create_table("mine")
print("second lists:", ",".join(sorted(t.name for t in second.list_tables())), flush=True)
try:
    list(TableServiceClient.from_connection_string(conn("devstoreaccount1", key2), retry_total=0).list_tables())
    print("second's key for devstoreaccount1: answered")
except HttpResponseError as e:
    print("second's key for devstoreaccount1:", code(e), flush=True)
try:
    TableClient(url + "/devstoreaccount1", "secure", credential=AzureNamedKeyCredential("second", key2), retry_total=0).get_entity("p", "r")
    print("second reads devstoreaccount1's table: answered")
except HttpResponseError as e:
    print("second reads devstoreaccount1's table:", code(e), flush=True)
# A table name breaking the rules: entity, query, ACL and batch requests
# are answered as create-table is, which the SDK turns into its ValueError
# (its query pager raises the service's error as it is).
for bad in ("1table", "aa", "a" * 64, "my_table"):
    tc = svc.get_table_client(bad)
    said = []
    for name, call in (("insert", lambda: tc.create_entity({"PartitionKey": "p", "RowKey": "r"})),
                       ("query", lambda: list(tc.query_entities("PartitionKey eq 'p'"))),
                       ("acl", lambda: tc.get_table_access_policy()),
                       ("batch", lambda: tc.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "r"})]))):
        try:
            call()
            said.append(name + ":answered")
        except ValueError as e:
            said.append(name + ":" + ("alphanumeric" if "alphanumeric" in str(e) else str(e)))
        except HttpResponseError as e:
            said.append(name + ":" + code(e))
    print("bad name", bad[:8], " ".join(said), flush=True)
# Names under .localhost are loopback (RFC 6761), as browsers and
# systemd-resolved resolve them; glibc's files lookup here does not.
resolve = socket.getaddrinfo
def loopback(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return resolve(host, *args, **kwargs)
socket.getaddrinfo = loopback
product = TableServiceClient(endpoint="https://devstoreaccount1.table.localhost:" + os.environ["PORT"],
                             credential=AzureNamedKeyCredential("devstoreaccount1", key), retry_total=0)
print("product-style:", ",".join(sorted(t.name for t in product.list_tables())), flush=True)
`

// jsHTTPS is the JavaScript SDK's side of TestDropInOverHTTPS.
const jsHTTPS = `const { TableClient, AzureNamedKeyCredential, AzureSASCredential, generateTableSas } = require("@azure/data-tables");
const url = process.env.URL, cred = new AzureNamedKeyCredential("devstoreaccount1", process.env.KEY);
(async () => {
  const t = new TableClient(url + "/devstoreaccount1", "jsecure", cred);
  await t.createTable();
  await t.createEntity({ partitionKey: "p", rowKey: "r", N: 7 });
  console.log("js shared key:", (await t.getEntity("p", "r")).N);
  const sas = generateTableSas("jsecure", cred, { permissions: { query: true }, expiresOn: new Date(Date.now() + 3600e3), protocol: "https" });
  const s = new TableClient(url + "/devstoreaccount1", "jsecure", new AzureSASCredential(sas));
  console.log("js sas https:", (await s.getEntity("p", "r")).N);
  const second = new TableClient(url + "/second", "jsecure", new AzureNamedKeyCredential("second", process.env.KEY2));
  try { await second.getEntity("p", "r"); console.log("js second: answered"); }
  catch (e) { console.log("js second:", e.statusCode, JSON.parse(e.response.bodyAsText)["odata.error"].code); }
})().catch((e) => { console.error(e); process.exit(1); });
`

// TestHTTPSFromPFX serves a PFX file's certificate and refuses TLS 1.1.
func TestHTTPSFromPFX(t *testing.T) {
	dir, pool := testCert(t)
	c := startChild(t, nil, "--in-memory", "--allow-anonymous", "--cert", filepath.Join(dir, "cert.pfx"), "--pwd", "pfx-pass")
	defer c.stop(t)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	req, _ := http.NewRequest("GET", c.url+"/devstoreaccount1/Tables", nil)
	req.Header.Set("Accept", "application/json;odata=nometadata")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("%d %+v", resp.StatusCode, resp.TLS)
	}
	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}}, Timeout: 10 * time.Second}
	if resp, err := old.Get(c.url + "/devstoreaccount1/Tables"); err == nil {
		resp.Body.Close()
		t.Fatal("TLS 1.1 was accepted")
	}
}

// TestAccountsKeptApart: with --data, the well-known account keeps the
// directory itself (a directory from before accounts opens as it was) and
// another account its own directory under accounts/; after a restart each
// finds its own tables and none of the other's.
func TestAccountsKeptApart(t *testing.T) {
	ctx := t.Context()
	data := t.TempDir()
	first := startChild(t, nil, "--data", data)
	if _, err := first.service(t).CreateTable(ctx, "old", nil); err != nil {
		t.Fatal(err)
	}
	first.stop(t)
	args := []string{"--data", data, "--account", rest.WellKnownAccount + ":" + rest.WellKnownKey, "--account", "second:" + secondKey}
	c := startChild(t, nil, args...)
	second := func(c *child) *aztables.ServiceClient {
		return sdktest.Service(t, c.url+"/second", "second", secondKey, nil)
	}
	if _, err := second(c).CreateTable(ctx, "theirs", nil); err != nil {
		t.Fatal(err)
	}
	c.stop(t)
	c = startChild(t, nil, args...)
	defer c.stop(t)
	names := func(svc *aztables.ServiceClient) string {
		var out []string
		pager := svc.NewListTablesPager(nil)
		for pager.More() {
			page, err := pager.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tb := range page.Tables {
				out = append(out, *tb.Name)
			}
		}
		return strings.Join(out, ",")
	}
	if a, b := names(c.service(t)), names(second(c)); a != "old" || b != "theirs" {
		t.Errorf("devstoreaccount1 lists %q, second %q", a, b)
	}
	if _, err := os.Stat(filepath.Join(data, "accounts", "second", "LOCK")); err != nil {
		t.Errorf("second's directory: %v", err)
	}
}

// TestCosmosAnswersThroughPython: under --profile cosmos, an empty
// PartitionKey or RowKey is 400 PropertiesNeedValue (F-COSMOS-EMPTY-KEYS),
// and a property named etag is stored while a second spelled Etag is
// dropped (F-COSMOS-ETAG-PROPERTY), as the Python SDK sees them.
func TestCosmosAnswersThroughPython(t *testing.T) {
	python := "/usr/bin/python3"
	if exec.Command(python, "-c", "import azure.data.tables").Run() != nil {
		requireAll(t, python+" cannot import azure.data.tables: apt-get install python3-azure")
	}
	c := startChild(t, nil, "--in-memory", "--profile", "cosmos")
	defer c.stop(t)
	cmd := exec.Command(python, "-c", `import os
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient
conn = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + os.environ["KEY"] + ";TableEndpoint=" + os.environ["URL"] + "/devstoreaccount1;"
tc = TableServiceClient.from_connection_string(conn, retry_total=0).create_table("cosmosrules")
for name, e in (("pk", {"PartitionKey": "", "RowKey": "r"}), ("rk", {"PartitionKey": "p", "RowKey": ""})):
    try:
        tc.create_entity(e)
        print("empty", name, "stored")
    except HttpResponseError as err:
        # The SDK re-raises this one as it came (keys present, though
        # empty): the code is in its body.
        print("empty", name, err.status_code, "PropertiesNeedValue" if '"code":"PropertiesNeedValue"' in str(err) else str(err))
tc.create_entity({"PartitionKey": "p", "RowKey": "e", "etag": "first", "Etag": "second"})
got = tc.get_entity("p", "e")
print("etag:", sorted(k for k in got.keys() if k.lower() == "etag"), [got[k] for k in got.keys() if k.lower() == "etag"])
`)
	cmd.Env = append(os.Environ(), "URL="+c.url, "KEY="+rest.WellKnownKey)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{"empty pk 400 PropertiesNeedValue", "empty rk 400 PropertiesNeedValue", "etag: ['etag'] ['first']"} {
		if !strings.Contains(string(out), w+"\n") {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
}
