package rest_test

import (
	"bytes"
	"io"
	"net/http"
)

// readAndRestore reads a response body and puts it back for the next reader.
func readAndRestore(r *http.Response) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, err
}
