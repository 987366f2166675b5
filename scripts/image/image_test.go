package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// imageDir is what make image wrote (IMAGE_DIR, else ../../bin/image).
func imageDir(t *testing.T) string {
	d := os.Getenv("IMAGE_DIR")
	if d == "" {
		d = filepath.Join("..", "..", "bin", "image")
	}
	if _, err := os.Stat(filepath.Join(d, "oci", "index.json")); err != nil {
		need(t, "no image in "+d+": make image writes it")
	}
	return d
}

// need fails under make test (TABLEPLAY_REQUIRE_ALL) and skips otherwise.
func need(t *testing.T, why string) {
	t.Helper()
	if v := os.Getenv("TABLEPLAY_REQUIRE_ALL"); v != "" && v != "0" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// readImage reads the layout's one image and the tarball's, and checks
// they are the same image.
func readImage(t *testing.T, dir string) v1.Image {
	ii, err := layout.ImageIndexFromPath(filepath.Join(dir, "oci"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ii.IndexManifest()
	if err != nil || len(m.Manifests) != 1 {
		t.Fatalf("index: %v, %d manifests", err, len(m.Manifests))
	}
	img, err := ii.Image(m.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tarball.ImageFromPath(filepath.Join(dir, "tableplay-image.tar"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := img.ConfigName()
	b, err := tb.ConfigName()
	if err != nil || a != b {
		t.Fatalf("the tarball's config %v (%v) is not the layout's %v", b, err, a)
	}
	return img
}

// TestImageConfig reads the config back: entrypoint, user, port, volume,
// the hosts allowed by default and the labels.
func TestImageConfig(t *testing.T) {
	img := readImage(t, imageDir(t))
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	want := []string{"/usr/local/bin/tableplay", "serve", "--addr", "0.0.0.0:10002", "--data", "/data"}
	if !slices.Equal(c.Entrypoint, want) || len(c.Cmd) != 0 {
		t.Errorf("entrypoint %q cmd %q", c.Entrypoint, c.Cmd)
	}
	if c.User != "65532:65532" || strings.HasPrefix(c.User, "0") {
		t.Errorf("user %q", c.User)
	}
	if _, ok := c.ExposedPorts["10002/tcp"]; !ok || len(c.ExposedPorts) != 1 {
		t.Errorf("ports %v", c.ExposedPorts)
	}
	if _, ok := c.Volumes["/data"]; !ok {
		t.Errorf("volumes %v", c.Volumes)
	}
	if !slices.Contains(c.Env, "TABLEPLAY_HOSTS=tableplay,azurite") {
		t.Errorf("env %q", c.Env)
	}
	for _, l := range []string{"org.opencontainers.image.version", "org.opencontainers.image.source", "org.opencontainers.image.revision"} {
		if c.Labels[l] == "" {
			t.Errorf("label %s missing: %v", l, c.Labels)
		}
	}
	if cf.OS != "linux" || cf.Architecture == "" {
		t.Errorf("platform %s/%s", cf.OS, cf.Architecture)
	}
}

// unpack extracts the image's layers into dir, owners and modes kept (the
// test runs as root), and returns the files' headers by name.
func unpack(t *testing.T, img v1.Image, dir string) map[string]*tar.Header {
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers: %v, %d", err, len(layers))
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	seen := map[string]*tar.Header{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(h.Name, "/")
		if strings.Contains(name, "..") || filepath.IsAbs(name) {
			t.Fatalf("layer path %q", h.Name)
		}
		seen[name] = h
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(f, tr); err != nil {
				t.Fatal(err)
			}
			f.Close()
		default:
			t.Fatalf("unexpected entry %q type %c", h.Name, h.Typeflag)
		}
		if err := os.Chmod(p, os.FileMode(h.Mode)&os.ModePerm|modeBits(h.Mode)); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() == 0 {
			if err := os.Lchown(p, h.Uid, h.Gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	return seen
}

// modeBits carries the sticky bit (/tmp).
func modeBits(m int64) os.FileMode {
	if m&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

// TestImageRunsInItsOwnNetwork unpacks the layer, checks what it holds (a
// static binary, the non-root user, /data owned by it) and runs the
// image's entrypoint, with the image's environment and user, chrooted
// into the rootfs inside a network namespace of its own whose /etc/hosts
// names the server tableplay, as a CI service or compose would. The
// Python SDK reaches it by that name (path-style and product-style), sees
// a name outside TABLEPLAY_HOSTS refused with an error it can read, and
// finds its entity in /data again after a restart.
func TestImageRunsInItsOwnNetwork(t *testing.T) {
	dir := imageDir(t)
	if os.Geteuid() != 0 {
		need(t, "running the image needs root (unshare, chroot)")
	}
	for _, tool := range []string{"unshare", "ip", "chroot", "/usr/bin/python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			need(t, tool+" is missing (util-linux, iproute2, coreutils, python3)")
		}
	}
	if exec.Command("/usr/bin/python3", "-c", "import azure.data.tables").Run() != nil {
		need(t, "/usr/bin/python3 cannot import azure.data.tables: apt-get install python3-azure")
	}
	img := readImage(t, dir)
	root := t.TempDir()
	os.Chmod(root, 0o755)
	files := unpack(t, img, root)
	exe := files["usr/local/bin/tableplay"]
	if exe == nil || exe.Mode&0o111 == 0 || exe.Uid != 0 {
		t.Fatalf("binary entry %+v", exe)
	}
	if d := files["data"]; d == nil || d.Uid != 65532 || d.Typeflag != tar.TypeDir {
		t.Fatalf("/data entry %+v", d)
	}
	passwd, _ := os.ReadFile(filepath.Join(root, "etc", "passwd"))
	if !strings.Contains(string(passwd), "tableplay:x:65532:65532:") {
		t.Fatalf("passwd %q", passwd)
	}
	ef, err := elf.Open(filepath.Join(root, "usr", "local", "bin", "tableplay"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the binary asks for a dynamic loader: build it with CGO_ENABLED=0")
		}
	}
	ef.Close()

	cf, _ := img.ConfigFile()
	work := t.TempDir()
	hosts := filepath.Join(work, "hosts")
	os.WriteFile(hosts, []byte("127.0.0.1 localhost tableplay devstoreaccount1.tableplay other\n"), 0o644)
	client := filepath.Join(work, "client.py")
	os.WriteFile(client, []byte(pythonClient), 0o644)
	script := `set -eu
ip link set lo up
mount --bind "$HOSTS" /etc/hosts
start() {
  env -i $IMAGE_ENV "$CHROOT" --userspec=$IMAGE_USER "$ROOT" "$@" >"$WORK/out.$N" 2>&1 &
  PID=$!
  for i in $(seq 100); do grep -q 'tableplay serving on' "$WORK/out.$N" && return 0; sleep 0.05; done
  cat "$WORK/out.$N"; exit 1
}
N=1 start "$@"
/usr/bin/python3 "$WORK/client.py" write
kill -TERM $PID; wait $PID || true
N=2 start "$@"
/usr/bin/python3 "$WORK/client.py" read
kill -TERM $PID; wait $PID || true
cat "$WORK/out.1" "$WORK/out.2" >&2
`
	cmd := exec.Command("unshare", append([]string{"--net", "--mount", "--", "/bin/sh", "-c", script, "sh"}, cf.Config.Entrypoint...)...)
	chroot, _ := exec.LookPath("chroot")
	cmd.Env = append(os.Environ(), "CHROOT="+chroot, "HOSTS="+hosts, "ROOT="+root, "WORK="+work,
		"IMAGE_ENV="+strings.Join(cf.Config.Env, " "), "IMAGE_USER="+cf.Config.User)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := runBounded(cmd, time.Minute); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	t.Logf("the image's two runs and three clients took %v", time.Since(start).Round(time.Millisecond))
	got := out.String()
	for _, w := range []string{
		"page: text/html",
		"path-style by service name: created kept",
		"product-style devstoreaccount1.tableplay: kept",
		"other: 403 AuthorizationFailure",
		"after restart: kept p r 42",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in\n%s\nstderr:\n%s", w, got, errb.String())
		}
	}
	// Listening on every interface, the connection string printed names an
	// address a client can use.
	if !strings.Contains(errb.String(), "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;") {
		t.Errorf("start lines:\n%s", errb.String())
	}
}

// runBounded runs cmd, killing it after d.
func runBounded(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return errors.New("timed out")
	}
}

// pythonClient is the SDK's side: write (before the restart) or read.
const pythonClient = `import sys, urllib.request
from azure.core.credentials import AzureNamedKeyCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
def conn(host):
    return ("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + KEY +
            ";TableEndpoint=http://" + host + ":10002/devstoreaccount1;")
svc = TableServiceClient.from_connection_string(conn("tableplay"), retry_total=0)
if sys.argv[1] == "write":
    with urllib.request.urlopen("http://tableplay:10002/", timeout=10) as r:
        print("page:", r.headers["Content-Type"].split(";")[0], flush=True)
    svc.create_table("kept")
    svc.get_table_client("kept").upsert_entity({"PartitionKey": "p", "RowKey": "r", "N": 42})
    print("path-style by service name: created kept", flush=True)
    product = TableServiceClient(endpoint="http://devstoreaccount1.tableplay:10002",
                                 credential=AzureNamedKeyCredential("devstoreaccount1", KEY), retry_total=0)
    print("product-style devstoreaccount1.tableplay:", ",".join(t.name for t in product.list_tables()), flush=True)
    try:
        list(TableServiceClient.from_connection_string(conn("other"), retry_total=0).list_tables())
        print("other: answered")
    except HttpResponseError as e:
        print("other:", e.status_code, getattr(e.error_code, "value", e.error_code), flush=True)
else:
    e = svc.get_table_client("kept").get_entity("p", "r")
    print("after restart: kept", e["PartitionKey"], e["RowKey"], e["N"], flush=True)
`
