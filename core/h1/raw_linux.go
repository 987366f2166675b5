package h1

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// rawIO reads and writes a TCP connection with raw system calls. A read or
// write on a socket the runtime made non-blocking never blocks, and a raw
// call skips the runtime's system-call bookkeeping, which after every idle
// moment wakes the runtime's monitor thread: a futex wake per request that
// made up an eighth of a one-client insert's server CPU in make perf's
// profile. Waiting for the socket, and the deadlines, stay the runtime's
// (syscall.RawConn waits when the call would block).
type rawIO struct {
	rc syscall.RawConn
	// readF and writevF are readFD and writevFD, bound once: a method
	// value made at each call would be allocated at each call.
	readF, writevF func(fd uintptr) bool
	// buf (then more, for writev) holds the bytes of the call under way,
	// n how many of them are done.
	buf, more []byte
	n         int
	err       syscall.Errno
}

// newRawIO returns the raw reader and writer of a TCP connection, or nil
// for any other kind of connection.
func newRawIO(nc net.Conn) *rawIO {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc}
	r.readF, r.writevF = r.readFD, r.writevFD
	return r
}

// read reads into p as net.Conn.Read does (deadlines included).
func (r *rawIO) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.buf, r.n, r.err = p, 0, 0
	if err := r.rc.Read(r.readF); err != nil {
		return 0, err
	}
	switch {
	case r.err != 0:
		return 0, r.err
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) readFD(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until readable
		case 0:
			r.n = int(n)
		default:
			r.err = e
		}
		return true
	}
}

// write writes all of p as net.Conn.Write does (deadlines included).
func (r *rawIO) write(p []byte) (int, error) { return r.write2(p, nil) }

// write2 writes a and then b as net.Buffers.WriteTo does: in one system
// call (writev) when the socket takes them whole.
func (r *rawIO) write2(a, b []byte) (int, error) {
	if len(a)+len(b) == 0 {
		return 0, nil
	}
	r.buf, r.more, r.n, r.err = a, b, 0, 0
	err := r.rc.Write(r.writevF)
	r.buf, r.more = nil, nil // the caller's bytes are not kept
	if err == nil && r.err != 0 {
		err = r.err
	}
	return r.n, err
}

func (r *rawIO) writevFD(fd uintptr) bool {
	for r.n < len(r.buf)+len(r.more) {
		var iov [2]syscall.Iovec
		k := 0
		if r.n < len(r.buf) {
			iov[0].Base = &r.buf[r.n]
			iov[0].SetLen(len(r.buf) - r.n)
			k = 1
		}
		if off := max(r.n-len(r.buf), 0); off < len(r.more) {
			iov[k].Base = &r.more[off]
			iov[k].SetLen(len(r.more) - off)
			k++
		}
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(k))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until writable
		case 0:
			r.n += int(n)
		default:
			r.err = e
			return true
		}
	}
	return true
}
