package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

// resetErr is a connection reset as net/http returns it.
var resetErr = &url.Error{Op: "Post", URL: "http://127.0.0.1/x", Err: &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}}

// conflict is the service's refusal of a batch whose entity exists.
func conflict() error {
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/devstoreaccount1/$batch", nil)
	return runtime.NewResponseError(&http.Response{StatusCode: http.StatusConflict, Status: "409 Conflict", Request: req,
		Header: http.Header{"X-Ms-Error-Code": {"EntityAlreadyExists"}}, Body: io.NopCloser(strings.NewReader(""))})
}

// TestIsReset: resets, broken pipes and cut answers are resets; answers,
// other errors and a cancelled context are not.
func TestIsReset(t *testing.T) {
	ctx := context.Background()
	for _, err := range []error{resetErr, io.EOF, &url.Error{Op: "Post", Err: io.ErrUnexpectedEOF}, syscall.EPIPE,
		&url.Error{Op: "Post", Err: errors.New("http: server closed idle connection")},
		&url.Error{Op: "Post", Err: &net.OpError{Op: "write", Net: "tcp", Err: net.ErrClosed}}} {
		if !isReset(ctx, err) {
			t.Errorf("%v is not a reset", err)
		}
	}
	for _, err := range []error{nil, conflict(), errors.New("other"), context.DeadlineExceeded} {
		if isReset(ctx, err) {
			t.Errorf("%v read as a reset", err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if isReset(done, resetErr) {
		t.Error("a reset after the context ended is the context's")
	}
}

// TestSubmitChecked: after a reset the batch is read back: whole, it
// counts; absent, it is sent again, and a refusal of that is read back
// too; part of it, or a reset too many, fails.
func TestSubmitChecked(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		submits []error // the answers to each send
		landed  []int   // what each read-back finds
		sent    int
		resets  int
		ok      bool
	}{
		{"no reset", []error{nil}, nil, 1, 0, true},
		{"refused at once", []error{conflict()}, nil, 1, 0, false},
		{"landed before the reset", []error{resetErr}, []int{100}, 1, 1, true},
		{"lost, sent again", []error{resetErr, nil}, []int{0}, 2, 1, true},
		{"lost twice", []error{resetErr, io.EOF, nil}, []int{0, 0}, 3, 2, true},
		{"resent, refused, there", []error{resetErr, conflict()}, []int{0, 100}, 2, 1, true},
		{"resent, refused, absent", []error{resetErr, conflict()}, []int{0, 0}, 2, 1, false},
		{"part of it", []error{resetErr}, []int{37}, 1, 1, false},
		{"resets every time", []error{resetErr, resetErr, resetErr, resetErr}, []int{0, 0, 0}, resetAttempts, resetAttempts, false},
	}
	for _, c := range cases {
		sent, read := 0, 0
		resets, err := submitChecked(ctx, func(context.Context) error {
			sent++
			return c.submits[sent-1]
		}, func(context.Context) (int, error) {
			read++
			return c.landed[read-1], nil
		}, 100, nil)
		if (err == nil) != c.ok || sent != c.sent || resets != c.resets || read != len(c.landed) {
			t.Errorf("%s: err %v, sent %d, resets %d, read back %d", c.name, err, sent, resets, read)
		}
	}
}

// resetting stands in front of h and cuts the connection of the batches
// numbered in cut, with a reset (RST): before h sees the request when
// before, else after h has applied it.
func resetting(h http.Handler, cut map[int64]bool, before bool) http.Handler {
	var batches atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "$batch") || !cut[batches.Add(1)] {
			h.ServeHTTP(w, r)
			return
		}
		if !before {
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	})
}

// TestLoadScaleResets: batches whose connection is reset before or after
// the server applied them are each read back and stored once: the load
// ends whole, with each reset counted.
func TestLoadScaleResets(t *testing.T) {
	for _, before := range []bool{true, false} {
		endpoint := startEngine(t, func(h http.Handler) http.Handler { return resetting(h, map[int64]bool{3: true, 7: true}, before) })
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		const n = 1500
		l, err := loadScale(ctx, endpoint, n)
		if err != nil || l.resets != 2 {
			t.Fatalf("before=%v: %+v, %v", before, l, err)
		}
		c, _, done, err := scaleClient(endpoint, "scale", 1)
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		if got, err := countPages(ctx, c, "PartitionKey ge 'part'"); err != nil || got != n {
			t.Errorf("before=%v: %d entities stored (%v), want %d", before, got, err, n)
		}
	}
}

// TestRetryResets: a mixed operation is sent again after each reset, up to
// resetAttempts, and not after an answer.
func TestRetryResets(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		answers []error
		resets  int
		ok      bool
	}{
		{[]error{nil}, 0, true},
		{[]error{resetErr, io.EOF, nil}, 2, true},
		{[]error{conflict()}, 0, false},
		{[]error{resetErr, conflict()}, 1, false},
		{[]error{resetErr, resetErr, resetErr, resetErr}, resetAttempts, false},
	} {
		sent, told := 0, 0
		resets, err := retryResets(ctx, func(context.Context) error {
			sent++
			return c.answers[sent-1]
		}, func(error) { told++ })
		if (err == nil) != c.ok || resets != c.resets || told != c.resets || sent != len(c.answers) {
			t.Errorf("%v: err %v, resets %d, told %d, sent %d", c.answers, err, resets, told, sent)
		}
	}
}
