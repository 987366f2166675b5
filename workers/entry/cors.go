package main

import "net/http"

// preflightRooms answers the preflight of POST /rooms from a page on any
// origin. No cookie or credential is involved, so every origin may create
// a room, as it may without a page.
func preflightRooms(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	}
	h.Set("Access-Control-Max-Age", "3600")
	w.WriteHeader(http.StatusNoContent)
}
