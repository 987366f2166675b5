package rest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

// readAndRestore reads a response body and puts it back for the next reader.
func readAndRestore(r *http.Response) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, err
}

func jsonUnmarshal(b []byte, v any) { _ = json.Unmarshal(b, v) }

func asResponseError(err error, re **azcore.ResponseError) bool { return errors.As(err, re) }
