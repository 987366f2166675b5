package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
)

// Call is one request handed to Serve without a network: the method, the
// absolute URL, the headers in order and the body.
type Call struct {
	Method  string      `json:"method"`
	URL     string      `json:"url"`
	Headers [][2]string `json:"headers"`
	Body    string      `json:"body"`
}

// Reply is the handler's answer to a Call: the status line, the headers in
// name order and the body.
type Reply struct {
	Status     int         `json:"status"`
	StatusText string      `json:"statusText"`
	Headers    [][2]string `json:"headers"`
	Body       string      `json:"body"`
}

// Serve answers a Call in process, exactly as ServeHTTP answers it over a
// connection, so packages that know no HTTP (lessons, say) can drive the API.
func (h *Handler) Serve(c Call) Reply {
	return h.serveCall(context.Background(), c)
}

func (h *Handler) serveCall(ctx context.Context, c Call) Reply {
	r, err := http.NewRequestWithContext(ctx, c.Method, c.URL, strings.NewReader(c.Body))
	if err != nil {
		return Reply{Status: http.StatusBadRequest, StatusText: http.StatusText(http.StatusBadRequest), Body: err.Error()}
	}
	for _, kv := range c.Headers {
		if strings.EqualFold(kv[0], "Content-Length") {
			continue // NewRequest set it from the body
		}
		r.Header.Add(kv[0], kv[1])
	}
	r.RemoteAddr = "127.0.0.1:1"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	res := w.Result()
	out := Reply{Status: res.StatusCode, StatusText: http.StatusText(res.StatusCode), Body: w.Body.String()}
	for _, k := range sortedKeys(res.Header) {
		for _, v := range res.Header[k] {
			out.Headers = append(out.Headers, [2]string{k, v})
		}
	}
	return out
}

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
