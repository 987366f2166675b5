//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// smallDisk mounts a tmpfs of size bytes (root only), unmounted when the
// test ends.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("TABLEPLAY_REQUIRE_ALL") == "1" {
			t.Fatal("mounting a small tmpfs to fill needs root")
		}
		t.Skip("mounting a small tmpfs to fill needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount: %v %s", err, out)
		}
	})
	return mnt
}

// fillDisk writes a file in dir until the disk refuses, and returns it.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for i := 0; i < 1<<16; i++ { // bounded: far more than the tmpfs holds
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return name
		}
	}
	t.Fatal("the disk never filled")
	return ""
}

// dirBytes is every file of dir with its bytes.
func dirBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// `tableplay serve` restarted on a data directory whose disk filled starts
// read-only, after a clean stop and after a kill: the account line says
// so and what to do, all 30 acknowledged entities are served, every write
// is answered 403 saying the account is read-only (no write is
// acknowledged, and the server does not stop), and no file changes, the
// clean stop included. (After a clean stop it used to start, make the
// first write in memory, answer 500 and exit; after a kill it refused to
// start.) With room again, it writes on.
func TestServeOnFullDiskIsReadOnly(t *testing.T) {
	for _, kill := range []bool{false, true} {
		t.Run(fmt.Sprint("kill=", kill), func(t *testing.T) {
			ctx := context.Background()
			mnt := smallDisk(t, 1<<20)
			dir := filepath.Join(mnt, "data")
			c := startChild(t, nil, "--data", dir)
			svc := c.service(t)
			if _, err := svc.CreateTable(ctx, "full", nil); err != nil {
				t.Fatal(err)
			}
			tc := svc.NewClient("full")
			for i := 0; i < 30; i++ {
				if _, err := tc.AddEntity(ctx, crashEntity("p", fmt.Sprintf("r%02d", i), i), nil); err != nil {
					t.Fatal(err)
				}
			}
			if kill {
				c.kill(t)
			} else {
				c.stop(t)
			}
			filler := fillDisk(t, mnt)
			before := dirBytes(t, dir)

			c = startChild(t, nil, "--data", dir)
			for _, part := range []string{"read-only: the disk is full", "every change is refused", "nothing acknowledged is lost", "--data pointing at the copy"} {
				if !strings.Contains(c.account(), part) {
					t.Errorf("account line %q; want %q", c.account(), part)
				}
			}
			t.Logf("account: %s", c.account())
			tc = c.service(t).NewClient("full")
			if n := countEntities(t, tc); n != 30 {
				t.Errorf("read-only start serves %d entities, want 30", n)
			}
			writes := map[string]func() error{
				"insert": func() error { _, err := tc.AddEntity(ctx, crashEntity("p", "new", 1), nil); return err },
				"upsert": func() error {
					_, err := tc.UpsertEntity(ctx, crashEntity("p", "r00", 9), &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeReplace})
					return err
				},
				"delete":       func() error { _, err := tc.DeleteEntity(ctx, "p", "r01", nil); return err },
				"create table": func() error { _, err := c.service(t).CreateTable(ctx, "other", nil); return err },
			}
			for what, write := range writes {
				var re *azcore.ResponseError
				err := write()
				if !errors.As(err, &re) || re.StatusCode != 403 || re.ErrorCode != "AuthorizationFailure" || !strings.Contains(err.Error(), "the account is read-only") {
					t.Errorf("%s on the read-only start: %v", what, err)
				}
			}
			if n := countEntities(t, tc); n != 30 {
				t.Errorf("after the refused writes: %d entities, want 30", n)
			}
			c.stop(t) // a clean exit: it did not stop itself
			after := dirBytes(t, dir)
			for name, b := range before {
				if after[name] != b {
					t.Errorf("the read-only run changed %s (%d bytes, was %d)", name, len(after[name]), len(b))
				}
			}
			if len(after) != len(before) {
				t.Errorf("files before %d, after %d", len(before), len(after))
			}

			os.Remove(filler)
			c = startChild(t, nil, "--data", dir)
			defer c.stop(t)
			if strings.Contains(c.account(), "read-only") {
				t.Errorf("with room: %q", c.account())
			}
			tc = c.service(t).NewClient("full")
			if _, err := tc.AddEntity(ctx, crashEntity("p", "new", 1), nil); err != nil {
				t.Errorf("insert with room: %v", err)
			}
			if n := countEntities(t, tc); n != 31 {
				t.Errorf("with room: %d entities, want 31", n)
			}
		})
	}
}

// countEntities lists a table's entities (RowKey only), at most 100 pages.
func countEntities(t *testing.T, tc *aztables.Client) int {
	t.Helper()
	n := 0
	pager := tc.NewListEntitiesPager(&aztables.ListEntitiesOptions{Select: to.Ptr("RowKey")})
	for pages := 0; pager.More() && pages < 100; pages++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		page, err := pager.NextPage(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Entities)
	}
	return n
}
