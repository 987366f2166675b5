//go:build !linux

package h1

import "net"

// rawIO is the raw reader and writer of raw_linux.go; elsewhere the
// connection's own Read and Write serve.
type rawIO struct{}

func newRawIO(net.Conn) *rawIO { return nil }

func (*rawIO) read([]byte) (int, error)  { panic("h1: no raw I/O here") }
func (*rawIO) write([]byte) (int, error) { panic("h1: no raw I/O here") }

func (*rawIO) write2(_, _ []byte) (int, error) { panic("h1: no raw I/O here") }
