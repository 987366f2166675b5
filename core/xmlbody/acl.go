package xmlbody

import (
	"bytes"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// ACL writes a table's stored access policies; a policy without fields
// is left out, and an empty list is <SignedIdentifiers />.
func ACL(ids []store.SignedIdentifier) []byte {
	var b bytes.Buffer
	b.WriteString(head)
	if len(ids) == 0 {
		b.WriteString("<SignedIdentifiers />")
		return b.Bytes()
	}
	b.WriteString("<SignedIdentifiers>")
	for _, id := range ids {
		b.WriteString("<SignedIdentifier><Id>")
		escapeText(&b, id.ID)
		b.WriteString("</Id>")
		if id.Start != nil || id.Expiry != nil || id.Permission != "" {
			b.WriteString("<AccessPolicy>")
			if id.Start != nil {
				b.WriteString("<Start>" + time7(*id.Start) + "</Start>")
			}
			if id.Expiry != nil {
				b.WriteString("<Expiry>" + time7(*id.Expiry) + "</Expiry>")
			}
			if id.Permission != "" {
				b.WriteString("<Permission>")
				escapeText(&b, id.Permission)
				b.WriteString("</Permission>")
			}
			b.WriteString("</AccessPolicy>")
		}
		b.WriteString("</SignedIdentifier>")
	}
	b.WriteString("</SignedIdentifiers>")
	return b.Bytes()
}

// aclEntry is one SignedIdentifier as read; a pointer is nil when its
// element is absent.
type aclEntry struct {
	ID     string
	Policy *struct{ Start, Expiry, Permission *string }
}

// aclReader collects a Set Table ACL body's identifiers (handler).
// Past one identifier over the limit (which the store refuses), each is
// checked and then its place reused: a body of identifiers costs no more.
type aclReader struct {
	ids []aclEntry
	bad bool // a reused identifier did not pass identifiers
}

func (r *aclReader) open(p [][]byte) bool {
	if string(p[0]) != "SignedIdentifier" {
		return false
	}
	switch {
	case len(p) == 1 && len(r.ids) > store.MaxSignedIdentifiers:
		if _, err := identifier(r.ids[len(r.ids)-1]); err != nil {
			r.bad = true
		}
		r.ids[len(r.ids)-1] = aclEntry{}
	case len(p) == 1:
		r.ids = append(r.ids, aclEntry{})
	case len(p) == 2 && string(p[1]) == "Id":
		return true
	case len(p) == 2 && string(p[1]) == "AccessPolicy":
		if e := &r.ids[len(r.ids)-1]; e.Policy == nil {
			e.Policy = new(struct{ Start, Expiry, Permission *string })
		}
	case len(p) == 3 && string(p[1]) == "AccessPolicy":
		switch string(p[2]) {
		case "Start", "Expiry", "Permission":
			return true
		}
	}
	return false
}

func (r *aclReader) close(p [][]byte, text []byte) bool {
	e := &r.ids[len(r.ids)-1]
	v := string(text)
	switch string(p[len(p)-1]) {
	case "Id":
		e.ID = v
	case "Start":
		e.Policy.Start = &v
	case "Expiry":
		e.Policy.Expiry = &v
	case "Permission":
		e.Policy.Permission = &v
	}
	return true
}

// ParseACL reads a Set Table ACL body. Times may be dates or date-times;
// permissions are letters from raud.
func ParseACL(body []byte) ([]store.SignedIdentifier, *tableerr.Error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	var d aclReader
	if !withinDepth(body, maxDepth) || !readDoc(body, "SignedIdentifiers", &d) || d.bad {
		return nil, tableerr.New(tableerr.InvalidXMLDocument)
	}
	return identifiers(d.ids)
}

// identifiers checks and converts the identifiers read.
func identifiers(ids []aclEntry) ([]store.SignedIdentifier, *tableerr.Error) {
	out := make([]store.SignedIdentifier, 0, len(ids))
	for _, x := range ids {
		id, err := identifier(x)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// identifier checks and converts one identifier read.
func identifier(x aclEntry) (store.SignedIdentifier, *tableerr.Error) {
	id := store.SignedIdentifier{ID: x.ID}
	p := x.Policy
	if p == nil {
		return id, nil
	}
	for _, f := range []struct {
		v   *string
		dst **edm.Ticks
	}{{p.Start, &id.Start}, {p.Expiry, &id.Expiry}} {
		if f.v == nil || strings.TrimSpace(*f.v) == "" {
			continue
		}
		t, ok := PolicyTime(strings.TrimSpace(*f.v))
		if !ok {
			return id, tableerr.New(tableerr.InvalidXMLDocument)
		}
		ticks := edm.TicksFromTime(t)
		*f.dst = &ticks
	}
	if p.Permission != nil {
		perm := strings.TrimSpace(*p.Permission)
		if strings.Trim(perm, "raud") != "" {
			return id, tableerr.New(tableerr.InvalidXMLDocument)
		}
		id.Permission = perm
	}
	// An <AccessPolicy/> without fields is kept as no policy, as the
	// service's read omits it (and as a snapshot restores it).
	id.HasPolicy = id.Start != nil || id.Expiry != nil || id.Permission != ""
	return id, nil
}

// PolicyTime reads an access policy's Start or Expiry: ISO 8601 UTC, with
// or without a time part. A SAS's st and se take the same forms (a policy
// the SAS names supplies them).
func PolicyTime(v string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02T15:04:05Z", "2006-01-02T15:04Z", "2006-01-02", time.RFC3339Nano} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
