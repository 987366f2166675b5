package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

// resetAttempts bounds how often one operation is sent again after its
// connection broke.
const resetAttempts = 4

// isReset tells a connection the server closed under a request (a reset,
// a broken pipe, an end of stream before the answer) from an answer or a
// cancelled context. Node drops a keep-alive connection once it has been
// idle for its keepAliveTimeout (5 s in Azurite); when a long collection
// holds its event loop, the timer fires before the request already waiting
// on that connection is read, and the client sees the connection reset.
func isReset(ctx context.Context, err error) bool {
	var re *azcore.ResponseError
	if err == nil || ctx.Err() != nil || errors.As(err, &re) {
		return false
	}
	// net/http does not export the error it returns for a request written
	// on a connection the server had closed: its text is all there is.
	// net.ErrClosed: the transport closed the connection on the reset
	// while the request's body was still being written.
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		strings.Contains(err.Error(), "http: server closed idle connection")
}

// retryResets runs op, again while its connection is reset, up to
// resetAttempts times; op must be safe to repeat (a read, a query, a merge
// of the same values). It returns how many resets it met, each told to
// onReset unless nil.
func retryResets(ctx context.Context, op func(context.Context) error, onReset func(error)) (int, error) {
	resets := 0
	for {
		err := op(ctx)
		if !isReset(ctx, err) {
			return resets, err
		}
		if onReset != nil {
			onReset(err)
		}
		if resets++; resets == resetAttempts {
			return resets, fmt.Errorf("%d resets in a row: %w", resets, err)
		}
	}
}

// submitChecked sends a batch of want inserts, which the service applies
// whole or not at all. When the connection is reset under it, the answer
// is lost, not necessarily the batch: landed reads back how many of the
// batch's entities are stored as sent. All of them: the batch had landed.
// None: it is sent again; should that be refused (the first one landed
// meanwhile: EntityAlreadyExists), it is read back once more rather than
// counted blindly. Any other count is an error, as is a reset too many.
// Each reset is told to onReset unless nil.
func submitChecked(ctx context.Context, submit func(context.Context) error, landed func(context.Context) (int, error), want int, onReset func(error)) (int, error) {
	err := submit(ctx)
	resets := 0
	for isReset(ctx, err) {
		if onReset != nil {
			onReset(err)
		}
		if resets++; resets == resetAttempts {
			return resets, fmt.Errorf("%d resets in a row: %w", resets, err)
		}
		n, lerr := readBack(ctx, landed, onReset)
		switch {
		case lerr != nil:
			return resets, fmt.Errorf("%w; reading the batch back: %v", err, lerr)
		case n == want:
			return resets, nil
		case n != 0:
			return resets, fmt.Errorf("%w; then %d of the batch's %d entities were stored", err, n, want)
		}
		err = submit(ctx)
		if err != nil && !isReset(ctx, err) {
			if n, lerr := readBack(ctx, landed, onReset); lerr == nil && n == want {
				return resets, nil
			}
			return resets, fmt.Errorf("sent again after a reset: %w", err)
		}
	}
	return resets, err
}

// readBack is landed, itself sent again after a reset.
func readBack(ctx context.Context, landed func(context.Context) (int, error), onReset func(error)) (int, error) {
	var n int
	_, err := retryResets(ctx, func(ctx context.Context) error {
		var err error
		n, err = landed(ctx)
		return err
	}, onReset)
	return n, err
}
