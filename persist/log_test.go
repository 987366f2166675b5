package persist

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/store"
)

func clock() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

// open opens dir and recovers it into a new store.
func open(t testing.TB, dir string, opts Options) (*Log, *store.Store, Report) {
	t.Helper()
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(store.Options{Clock: clock, Journal: l})
	rep, err := l.Recover(st)
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	return l, st, rep
}

func insert(t testing.TB, st *store.Store, table, pk, rk string, n int) {
	t.Helper()
	e := &entity.Entity{PartitionKey: pk, RowKey: rk, Properties: []entity.Property{{Name: "N", Value: edm.Int32Value(int32(n))}}}
	if _, err := st.Apply(table, store.Op{Kind: store.InsertOrReplace, Entity: e}); err != nil {
		t.Fatal(err)
	}
}

// workload makes every kind of change.
func workload(t testing.TB, st *store.Store, n int) {
	t.Helper()
	for _, name := range []string{"Orders", "Gone", "acl"} {
		if _, err := st.CreateTable(name); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		insert(t, st, "Orders", fmt.Sprint("p", i%3), fmt.Sprint("r", i), i)
		insert(t, st, "Gone", "p", fmt.Sprint("r", i), i)
	}
	ops := []store.Op{
		{Kind: store.Insert, Entity: &entity.Entity{PartitionKey: "b", RowKey: "1"}},
		{Kind: store.Insert, Entity: &entity.Entity{PartitionKey: "b", RowKey: "2"}},
	}
	if _, err := st.Transact("Orders", ops); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transact("Orders", ops); err == nil { // fails: both exist
		t.Fatal("duplicate batch succeeded")
	}
	if _, err := st.Apply("Orders", store.Op{Kind: store.Delete, Entity: &entity.Entity{PartitionKey: "p0", RowKey: "r0"}, IfMatch: store.Match{Kind: store.MatchAny}}); err != nil {
		t.Fatal(err)
	}
	exp := edm.MinTicks + 1
	if err := st.SetACL("acl", []store.SignedIdentifier{{ID: "read", HasPolicy: true, Expiry: &exp, Permission: "r"}}); err != nil {
		t.Fatal(err)
	}
	p := st.Properties()
	p.Cors = []store.CorsRule{{AllowedOrigins: "https://example.com", AllowedMethods: "GET", MaxAgeInSeconds: 5}}
	if err := st.SetProperties(p); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteTable("Gone"); err != nil {
		t.Fatal(err)
	}
}

func TestReplayEqualsStateBefore(t *testing.T) {
	dir := t.TempDir()
	l, st, rep := open(t, dir, Options{})
	if rep.Records != 0 || rep.Snapshot != "" || rep.Cut != nil {
		t.Fatalf("new directory: %+v", rep)
	}
	workload(t, st, 50)
	want := st.Snapshot()
	records := l.Stats().Records
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2, st2, rep2 := open(t, dir, Options{})
	defer l2.Close()
	if got := st2.Snapshot(); !bytes.Equal(got, want) {
		t.Fatalf("replayed account differs:\n%s\n%s", want, got)
	}
	if uint64(rep2.Records) != records || rep2.Cut != nil || rep2.Segments != 1 {
		t.Errorf("report %+v, %d records written", rep2, records)
	}
	if !strings.Contains(rep2.String(), fmt.Sprintf("%d change(s) replayed", records)) {
		t.Errorf("report line %q", rep2)
	}
}

// segment returns the path of the newest log segment.
func segment(t testing.TB, dir string) string {
	t.Helper()
	d, err := listDir(dir)
	if err != nil || len(d.logs) == 0 {
		t.Fatal(err, d)
	}
	// A clean stop leaves a successor holding only its head: the segment
	// meant is the one before it, which holds the records.
	for i := len(d.logs) - 1; i > 0; i-- {
		if st, err := os.Stat(filepath.Join(dir, logName(d.logs[i]))); err != nil || st.Size() != headEnd {
			break
		}
		d.logs = d.logs[:i]
	}
	return filepath.Join(dir, logName(d.logs[len(d.logs)-1]))
}

// written makes a directory whose newest segment holds n inserts, and
// returns the segment and the account.
func written(t *testing.T, n int) (dir, seg string, want []byte) {
	return inserts(t, n, false)
}

func TestTornTailIsCutAndReported(t *testing.T) {
	for name, tail := range map[string][]byte{
		"half a header":  {7, 0, 0},
		"half a payload": appendFrame(nil, []byte(`{"op":"write","table":"Orders"}`))[:20],
		"zeros":          make([]byte, 4096), // a file extended but never written
	} {
		t.Run(name, func(t *testing.T) {
			dir, seg, want := written(t, 10)
			whole, _ := os.ReadFile(seg)
			if err := os.WriteFile(seg, append(whole, tail...), 0o600); err != nil {
				t.Fatal(err)
			}
			var reports []string
			l, st, rep := open(t, dir, Options{Report: func(s string) { reports = append(reports, s) }})
			defer l.Close()
			if rep.Cut == nil || rep.Cut.Offset != int64(len(whole)) || rep.Cut.Dropped != int64(len(tail)) || rep.Records != 11 {
				t.Fatalf("report %+v cut %+v", rep, rep.Cut)
			}
			if len(reports) != 1 || !strings.Contains(reports[0], "cut") {
				t.Errorf("reported %q", reports)
			}
			if got := st.Snapshot(); !bytes.Equal(got, want) {
				t.Errorf("account after the cut differs")
			}
			if now, _ := os.ReadFile(seg); !bytes.Equal(now, whole) {
				t.Errorf("segment not truncated to %d bytes: %d", len(whole), len(now))
			}
		})
	}
}

func TestCorruptChecksumIsDetected(t *testing.T) {
	dir, seg, _ := written(t, 10)
	whole, _ := os.ReadFile(seg)
	// Flip one byte of the fourth record's payload: the records after it
	// (and the seal) are intact, so this is corruption, not a torn tail.
	at := frameOffsets(t, whole)[3]
	damaged := bytes.Clone(whole)
	damaged[at+recHeaderSize+5] ^= 0x20
	os.WriteFile(seg, damaged, 0o600)
	err := recoverErr(t, dir)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s is damaged at offset %d", filepath.Base(seg), at)) ||
		!strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), "refusing to start") {
		t.Fatalf("damaged record followed by intact ones: %v", err)
	}
	if now, _ := os.ReadFile(seg); !bytes.Equal(now, damaged) {
		t.Error("the damaged segment was changed")
	}
}

// frameOffsets returns where each record frame of a segment begins.
func frameOffsets(t testing.TB, seg []byte) []int64 {
	t.Helper()
	fr := newRecordReader(bytes.NewReader(seg[len(segmentMagic):]), int64(len(seg)))
	var out []int64
	for {
		at := fr.offset
		if _, err := fr.next(); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("frame at %d: %v", at, err)
		}
		if at == int64(len(segmentMagic)) && bytes.HasPrefix(seg, segmentMagic) {
			continue // the head, not a record or a seal
		}
		out = append(out, at)
	}
}

// recoverErr recovers dir into a new store and returns the error.
func recoverErr(t testing.TB, dir string) error {
	t.Helper()
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = l.Recover(store.New(store.Options{Clock: clock}))
	return err
}

func TestDamageBeforeTheTailStopsTheStart(t *testing.T) {
	dir, seg, _ := written(t, 5)
	// A second start writes to a newer segment: the first is no longer the
	// tail.
	l, st, _ := open(t, dir, Options{})
	insert(t, st, "Orders", "p", "later", 1)
	l.Close()
	whole, _ := os.ReadFile(seg)
	whole[len(whole)-2] ^= 1
	os.WriteFile(seg, whole, 0o600)
	l2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	_, err = l2.Recover(store.New(store.Options{Clock: clock}))
	if err == nil || !strings.Contains(err.Error(), "refusing to start") {
		t.Errorf("damaged older segment: %v", err)
	}
	if now, _ := os.ReadFile(seg); !bytes.Equal(now, whole) {
		t.Error("the damaged segment was changed")
	}
}

func TestMissingSegmentOrDamagedSnapshotStopsTheStart(t *testing.T) {
	dir, seg, _ := written(t, 3)
	l, st, _ := open(t, dir, Options{})
	insert(t, st, "Orders", "p", "x", 1)
	l.Close()
	os.Remove(seg)
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing first segment: %v", err)
	}

	dir = compacted(t)
	d, _ := listDir(dir)
	snap := filepath.Join(dir, snapshotName(d.snapshots[0]))
	b, _ := os.ReadFile(snap)
	b[len(b)/2] ^= 1
	os.WriteFile(snap, b, 0o600)
	if err := recoverErr(t, dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged snapshot: %v", err)
	}
}

// compacted returns a directory whose log was compacted at least once.
func compacted(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	l, st, _ := open(t, dir, Options{CompactBytes: 2048})
	workload(t, st, 100)
	if err := l.Close(); err != nil { // waits for the running compaction
		t.Fatal(err)
	}
	if l.Stats().Compactions == 0 {
		t.Fatal("no compaction")
	}
	return dir
}

func TestCompactionKeepsTheState(t *testing.T) {
	dir := t.TempDir()
	var reports []string
	var mu sync.Mutex
	report := func(s string) { mu.Lock(); reports = append(reports, s); mu.Unlock() }
	l, st, _ := open(t, dir, Options{CompactBytes: 4096, Report: report})
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				insert(t, st, "Orders", fmt.Sprint("w", w), fmt.Sprint("r", i%50), i)
			}
		}(w)
	}
	wg.Wait()
	// A slow machine may have compacted only once while the writers ran:
	// write on until a second compaction has begun (it starts in the
	// background; Close waits for it).
	for i := 0; l.compactions() < 2; i++ {
		if i == 3000 {
			t.Fatalf("no second compaction in 3000 more writes: %+v", l.Stats())
		}
		insert(t, st, "Orders", "more", fmt.Sprint("r", i%50), i)
	}
	want := st.Snapshot()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	stats := l.Stats()
	if stats.Compactions < 2 || len(reports) != 0 {
		t.Fatalf("stats %+v, reports %q", stats, reports)
	}
	// One snapshot, and only the segments from its generation on.
	d, _ := listDir(dir)
	if len(d.snapshots) != 1 || d.logs[0] != d.snapshots[0] || len(d.temporary) != 0 {
		t.Errorf("files after compaction: %+v", d)
	}
	l2, st2, rep := open(t, dir, Options{})
	defer l2.Close()
	if got := st2.Snapshot(); !bytes.Equal(got, want) {
		t.Fatalf("account after compaction differs")
	}
	if rep.Snapshot == "" || uint64(rep.Records) >= stats.Records {
		t.Errorf("replayed %+v of %d records: the snapshot should spare most", rep, stats.Records)
	}
}

func TestConcurrentWritersShareSyncs(t *testing.T) {
	l, st, _ := open(t, t.TempDir(), Options{})
	defer l.Close()
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	base := l.Stats()
	var wg sync.WaitGroup
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				insert(t, st, "Orders", fmt.Sprint("w", w), fmt.Sprint("r", i), i)
			}
		}(w)
	}
	wg.Wait()
	s := l.Stats()
	records, syncs := s.Records-base.Records, s.Syncs-base.Syncs
	if records != 320 || syncs >= records {
		t.Errorf("%d records in %d syncs: no group commit", records, syncs)
	}
	t.Logf("%d records, %d fsyncs (%.2f per record)", records, syncs, float64(syncs)/float64(records))
}

func TestOneServerPerDirectory(t *testing.T) {
	dir := t.TempDir()
	l, _, _ := open(t, dir, Options{})
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second open: %v", err)
	}
	l.Close()
	l2, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	l2.Close()
}

// Any bytes as a log: reading never panics, never allocates more than the
// input holds, and the records it accepts re-frame to exactly the prefix it
// consumed; what follows is torn or fails its checksum.
func FuzzReadFrames(f *testing.F) {
	good := appendFrame(nil, []byte(`{"op":"createTable","table":"Orders","created":"2026-01-01T00:00:00Z"}`))
	good = appendFrame(good, []byte(`{"op":"deleteTable","table":"Orders"}`))
	f.Add(good)
	f.Add(good[:len(good)-3])
	f.Add(append(bytes.Clone(good), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := newFrameReader(bytes.NewReader(data), int64(len(data)))
		var again []byte
		for i := 0; ; i++ {
			p, err := fr.next()
			if err == io.EOF {
				if fr.offset != int64(len(data)) {
					t.Fatalf("EOF at %d of %d", fr.offset, len(data))
				}
				break
			}
			if err != nil {
				if err != errTorn && err != errChecksum {
					t.Fatalf("error %v", err)
				}
				break
			}
			again = appendFrame(again, p)
		}
		if !bytes.Equal(again, data[:fr.offset]) {
			t.Fatalf("accepted frames do not re-frame to the input")
		}
	})
}

func TestWriteAfterCloseFails(t *testing.T) {
	l, st, _ := open(t, t.TempDir(), Options{})
	if _, err := st.CreateTable("Orders"); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTable("Later"); err == nil || err.Status != 500 {
		t.Errorf("write after close: %v", err)
	}
}

// compactions counts the compactions finished or running.
func (l *Log) compactions() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.stats.Compactions
	if l.compacting {
		n++
	}
	return n
}
