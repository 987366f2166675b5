// Command image writes tableplay's OCI image without Docker, with
// go-containerregistry: one layer holding the static binary (the site
// inside), a passwd entry for its non-root user and /data, the data
// directory; an entrypoint that serves on 0.0.0.0:10002. It writes an OCI
// image layout (DIR/oci) and a tarball that docker load and podman load
// take (DIR/tableplay-image.tar). make image runs it; docs/server.md says
// how to use the image.
//
//	go run . -bin PATH -version V -source URL -arch amd64 -out DIR
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user: not root, with the uid distroless images use for
// theirs, so that a volume prepared for one fits the other.
const (
	uid  = 65532
	user = "tableplay"
)

// Hosts is the image's TABLEPLAY_HOSTS: the service names CI services and
// compose files give an Azurite container, which a user may keep. Names
// without a dot resolve only through the container network's own DNS or
// /etc/hosts, never through a public zone, so a page on some site cannot
// rebind one of them to the container (docs/server.md, the Host rule).
const Hosts = "tableplay,azurite"

// Entrypoint is what the image runs.
var Entrypoint = []string{"/usr/local/bin/tableplay", "serve", "--addr", "0.0.0.0:10002", "--data", "/data"}

func main() {
	bin := flag.String("bin", "", "the static tableplay binary (CGO_ENABLED=0, built with the site)")
	version := flag.String("version", "0.0.0-dev", "the version the image is labelled with")
	source := flag.String("source", "https://github.com/tableplay/tableplay", "the source repository label")
	revision := flag.String("revision", "", "the VCS revision label")
	arch := flag.String("arch", "amd64", "the binary's architecture")
	out := flag.String("out", "bin/image", "the directory written")
	flag.Parse()
	if err := build(*bin, *version, *source, *revision, *arch, *out); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

// epoch is every file's and the image's time, so that the same binary
// makes the same image bytes.
var epoch = time.Unix(0, 0).UTC()

func build(bin, version, source, revision, arch, out string) error {
	if bin == "" {
		return fmt.Errorf("-bin is required")
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	rootfs, err := rootTar(exe)
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(rootfs)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, layer)
	if err != nil {
		return err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS, cf.Created = arch, "linux", v1.Time{Time: epoch}
	cf.Config = v1.Config{
		Entrypoint:   Entrypoint,
		User:         fmt.Sprintf("%d:%d", uid, uid),
		WorkingDir:   "/data",
		Env:          []string{"PATH=/usr/local/bin", "TABLEPLAY_HOSTS=" + Hosts},
		ExposedPorts: map[string]struct{}{"10002/tcp": {}},
		Volumes:      map[string]struct{}{"/data": {}},
		Labels: map[string]string{
			"org.opencontainers.image.title":       "tableplay",
			"org.opencontainers.image.description": "The Azure Table service, a drop-in for Azurite's table endpoint",
			"org.opencontainers.image.version":     version,
			"org.opencontainers.image.source":      source,
			"org.opencontainers.image.revision":    revision,
		},
	}
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return err
	}
	ref := "tableplay:" + version
	tag, err := name.NewTag(ref)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, "oci")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": version})); err != nil {
		return err
	}
	if err := tarball.WriteToFile(filepath.Join(out, "tableplay-image.tar"), tag, img); err != nil {
		return err
	}
	size, err := layer.Size()
	if err != nil {
		return err
	}
	d, _ := img.Digest()
	fmt.Printf("image %s %s: layer %d bytes compressed, %s/oci and %s/tableplay-image.tar\n", ref, d, size, out, out)
	return nil
}

// rootTar is the layer: the binary, the user's passwd and group entries
// (so that the process has a name and a home) and /data, the user's.
func rootTar(exe []byte) ([]byte, error) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	dir := func(name string, mode int64, owner int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: owner, Gid: owner, ModTime: epoch, Format: tar.FormatPAX})
	}
	file := func(name string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	steps := []func() error{
		func() error { return dir("etc", 0o755, 0) },
		func() error {
			return file("etc/passwd", 0o644, fmt.Appendf(nil, "root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:/data:/sbin/nologin\n", user, uid, uid, user))
		},
		func() error { return file("etc/group", 0o644, fmt.Appendf(nil, "root:x:0:\n%s:x:%d:\n", user, uid)) },
		func() error { return dir("tmp", 0o1777, 0) },
		func() error { return dir("usr", 0o755, 0) },
		func() error { return dir("usr/local", 0o755, 0) },
		func() error { return dir("usr/local/bin", 0o755, 0) },
		func() error { return file("usr/local/bin/tableplay", 0o755, exe) },
		func() error { return dir("data", 0o700, uid) },
		tw.Close,
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}
