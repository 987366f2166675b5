package rest

import (
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/mediatype"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// DefaultVersion is the x-ms-version assumed when a request sends none (the
// version current SDKs send).
const DefaultVersion = "2019-02-02"

// oldestVersion is the oldest x-ms-version accepted.
const oldestVersion = "2013-08-15"

// version returns the request's x-ms-version, or InvalidHeaderValue for a
// value that is not a service version date from 2013-08-15 on.
func version(h Header) (string, *tableerr.Error) {
	v := h.Get("X-Ms-Version")
	if v == "" {
		return DefaultVersion, nil
	}
	if len(v) != 10 || v[4] != '-' || v[7] != '-' || v < oldestVersion || v > "2099-12-31" {
		return DefaultVersion, tableerr.New(tableerr.InvalidHeaderValue)
	}
	for i, c := range []byte(v) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return DefaultVersion, tableerr.New(tableerr.InvalidHeaderValue)
		}
	}
	return v, nil
}

// format is the outcome of payload negotiation: the metadata level, and
// whether the client asked for JSON at all.
type format struct {
	level odata.Level
	json  bool
	err   *tableerr.Error // a JSON format the service refuses (verbose, old MaxDataServiceVersion)
}

// negotiate reads $format (which wins) or Accept (F-ACCEPT): the JSON media types
// at the three levels, plain application/json as minimal metadata;
// odata=verbose is refused; anything else (Atom, XML, */*, nothing) is not
// JSON. JSON also needs MaxDataServiceVersion ≥ 3.0 when it is sent.
func negotiate(r *Request, q map[string][]string) format {
	exact := r.Header["Accept"]
	if v, ok := q["$format"]; ok {
		exact = v[:min(len(v), 1)] // $format's first value alone counts
	}
	if len(exact) == 1 {
		if l, ok := exactJSONAccept(exact[0]); ok {
			return checkMaxVersion(r, format{level: l, json: true})
		}
	}
	f := format{level: odata.MinimalMetadata}
	accept := r.Header.Values("Accept")
	if v, ok := q["$format"]; ok && len(v) > 0 {
		accept = []string{v[0]}
	}
	for _, a := range accept {
		for _, part := range strings.Split(a, ",") {
			mt, params, ok := mediatype.Parse(strings.TrimSpace(part))
			if !ok || mt != "application/json" {
				if strings.TrimSpace(part) == "json" { // $format=json
					f.json = true
					return checkMaxVersion(r, f)
				}
				continue
			}
			switch l := params["odata"]; l {
			case "":
				f.level = odata.MinimalMetadata
			case "verbose":
				f.json = true
				f.err = tableerr.New(tableerr.JSONVerboseFormatNotSupported)
				return f
			default:
				lv, ok := odata.ParseLevel(l)
				if !ok {
					continue
				}
				f.level = lv
			}
			f.json = true
			return checkMaxVersion(r, f)
		}
	}
	return f
}

// exactJSONAccept recognizes the Accept values SDKs send, which the general
// reading below would take the same way, without parsing them.
func exactJSONAccept(a string) (odata.Level, bool) {
	switch a {
	case "application/json;odata=minimalmetadata", "application/json":
		return odata.MinimalMetadata, true
	case "application/json;odata=nometadata":
		return odata.NoMetadata, true
	case "application/json;odata=fullmetadata":
		return odata.FullMetadata, true
	}
	return 0, false
}

func checkMaxVersion(r *Request, f format) format {
	if v := r.Header.Get("Maxdataserviceversion"); v != "" {
		num := strings.TrimSpace(strings.SplitN(v, ";", 2)[0])
		if n, err := strconv.ParseFloat(num, 64); err == nil && n < 3.0 {
			f.err = tableerr.New(tableerr.JSONFormatNotSupported)
		}
	}
	return f
}

// requireJSON returns the error for a body-returning operation whose client
// did not ask for JSON (F-ACCEPT).
func (f format) requireJSON() *tableerr.Error {
	if f.err != nil {
		return f.err
	}
	if !f.json {
		return tableerr.New(tableerr.AtomFormatNotSupported)
	}
	return nil
}

// honoursPrefer reports whether an operation honours Prefer and so answers
// with Preference-Applied (F-PREFER), as its row says: create table, insert,
// and update, merge and their upserts. Reads, deletes, the XML endpoints and
// $batch (whose parts carry their own Prefer) do not, nor does a request
// with comp.
func honoursPrefer(k op.Kind, q map[string][]string) bool {
	if _, comp := q["comp"]; comp {
		return false
	}
	return k.Prefer()
}

// honoursPrefer is honoursPrefer as the implementation has it.
func (x *exchange) honoursPrefer(k op.Kind, q map[string][]string) bool {
	return x.h.dia.HonoursPrefer(k) && honoursPrefer(k, q)
}

// preference reads Prefer for the operations that honour it (F-PREFER):
// whether content is returned and the Preference-Applied value to echo (""
// when no Prefer was sent). Without Prefer, create table and insert return
// content, update and merge do not.
func preference(h Header) (returnContent bool, applied string) {
	p := strings.ToLower(strings.TrimSpace(h.Get("Prefer")))
	switch p {
	case "":
		return true, ""
	case "return-no-content":
		return false, "return-no-content"
	}
	return true, "return-content"
}

// ifMatch reads If-Match: absent, "*", or an ETag (F-IF-MATCH). A value that
// is not an ETag is 400 InvalidInput with the service's message; a weak ETag
// not of tableplay's form can never match.
func ifMatch(h Header) (store.Match, *tableerr.Error) {
	vals := h.Values("If-Match")
	if len(vals) == 0 {
		return store.Match{}, nil
	}
	v := strings.TrimSpace(strings.Join(vals, ","))
	if v == "*" {
		return store.Match{Kind: store.MatchAny}, nil
	}
	if t, ok := odata.ParseETag(v); ok {
		return store.Match{Kind: store.MatchETag, ETag: t}, nil
	}
	if strings.HasPrefix(v, `W/"`) && strings.HasSuffix(v, `"`) && len(v) > 4 && !strings.Contains(v[3:len(v)-1], `"`) {
		return store.Match{Kind: store.MatchETag, ETag: -1}, nil
	}
	return store.Match{}, tableerr.WithMessage(tableerr.InvalidInput,
		"The etag value '"+v+"' specified in one of the request headers is not valid. Please make sure only one etag value is specified and is valid.")
}

// effectiveMethod applies X-HTTP-Method (F-X-HTTP-METHOD) and PATCH-as-MERGE.
func effectiveMethod(r *Request) (string, *tableerr.Error) {
	xs := r.Header.Values("X-Http-Method")
	m := r.Method
	if len(xs) > 0 {
		// Two values may also arrive joined by a comma (a browser's Headers).
		if len(xs) > 1 || strings.Contains(xs[0], ",") {
			return "", tableerr.New(tableerr.XMethodIncorrectCount)
		}
		if r.Method != "POST" {
			return "", tableerr.New(tableerr.XMethodNotUsingPost)
		}
		switch x := strings.ToUpper(strings.TrimSpace(xs[0])); x {
		case "MERGE", "PUT", "DELETE":
			m = x
		default:
			return "", tableerr.New(tableerr.XMethodIncorrectValue)
		}
	}
	if m == "PATCH" {
		m = "MERGE"
	}
	return m, nil
}
