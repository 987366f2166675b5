package rest

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// xmlHead starts every XML body the service writes: a UTF-8 byte-order mark
// and the declaration (live recordings).
const xmlHead = "\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>"

// xmlText writes s as XML character data, escaped as encoding/xml's
// EscapeText does (the bodies were written with it): quotes, ampersand,
// angle brackets, tab and line ends as references, and a character XML
// does not allow (or a byte that is not UTF-8) as U+FFFD.
func xmlText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if isXMLChar(r) && (r != utf8.RuneError || n > 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(s[last : i-n])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// time7 writes an ACL time as the service does: 7 fractional digits.
func time7(t edm.Ticks) string {
	frac := int64(t) % 10_000_000
	s := strconv.FormatInt(frac, 10)
	return t.Time().Format("2006-01-02T15:04:05") + "." + strings.Repeat("0", 7-len(s)) + s + "Z"
}

// aclXML writes a table's stored access policies; a policy without fields
// is left out, and an empty list is <SignedIdentifiers />.
func aclXML(ids []store.SignedIdentifier) []byte {
	var b bytes.Buffer
	b.WriteString(xmlHead)
	if len(ids) == 0 {
		b.WriteString("<SignedIdentifiers />")
		return b.Bytes()
	}
	b.WriteString("<SignedIdentifiers>")
	for _, id := range ids {
		b.WriteString("<SignedIdentifier><Id>")
		xmlText(&b, id.ID)
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
				xmlText(&b, id.Permission)
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

// aclReader collects a Set Table ACL body's identifiers (xmlHandler).
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

// parseACL reads a Set Table ACL body. Times may be dates or date-times;
// permissions are letters from raud.
func parseACL(body []byte) ([]store.SignedIdentifier, *tableerr.Error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	var d aclReader
	if !xmlWithinDepth(body, maxXMLDepth) || !readXML(body, "SignedIdentifiers", &d) || d.bad {
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
		t, ok := sasTime(strings.TrimSpace(*f.v))
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

// propertiesXML writes the service properties as the live service does.
func propertiesXML(p store.ServiceProperties) []byte {
	var b bytes.Buffer
	boolS := strconv.FormatBool
	retention := func(enabled bool, days int) {
		b.WriteString("<RetentionPolicy><Enabled>" + boolS(enabled) + "</Enabled>")
		if enabled {
			b.WriteString("<Days>" + strconv.Itoa(days) + "</Days>")
		}
		b.WriteString("</RetentionPolicy>")
	}
	metrics := func(name string, m store.Metrics) {
		b.WriteString("<" + name + "><Version>")
		xmlText(&b, m.Version)
		b.WriteString("</Version><Enabled>" + boolS(m.Enabled) + "</Enabled>")
		if m.Enabled {
			inc := m.IncludeAPIs != nil && *m.IncludeAPIs
			b.WriteString("<IncludeAPIs>" + boolS(inc) + "</IncludeAPIs>")
		}
		retention(m.RetentionEnabled, m.RetentionDays)
		b.WriteString("</" + name + ">")
	}
	b.WriteString(xmlHead + "<StorageServiceProperties><Logging><Version>")
	xmlText(&b, p.Logging.Version)
	b.WriteString("</Version><Read>" + boolS(p.Logging.Read) + "</Read><Write>" + boolS(p.Logging.Write) + "</Write><Delete>" + boolS(p.Logging.Delete) + "</Delete>")
	retention(p.Logging.RetentionEnabled, p.Logging.RetentionDays)
	b.WriteString("</Logging>")
	metrics("HourMetrics", p.HourMetrics)
	metrics("MinuteMetrics", p.MinuteMetrics)
	if len(p.Cors) == 0 {
		b.WriteString("<Cors />")
	} else {
		b.WriteString("<Cors>")
		for _, r := range p.Cors {
			b.WriteString("<CorsRule>")
			for _, f := range [][2]string{{"AllowedMethods", r.AllowedMethods}, {"AllowedOrigins", r.AllowedOrigins}, {"AllowedHeaders", r.AllowedHeaders}, {"ExposedHeaders", r.ExposedHeaders}} {
				b.WriteString("<" + f[0] + ">")
				xmlText(&b, f[1])
				b.WriteString("</" + f[0] + ">")
			}
			b.WriteString("<MaxAgeInSeconds>" + strconv.Itoa(r.MaxAgeInSeconds) + "</MaxAgeInSeconds></CorsRule>")
		}
		b.WriteString("</Cors>")
	}
	b.WriteString("</StorageServiceProperties>")
	return b.Bytes()
}

type retentionXML struct {
	Enabled bool
	Days    *int
}

type metricsXML struct {
	Version     string
	Enabled     bool
	IncludeAPIs *bool
	Retention   retentionXML
}

type loggingXML struct {
	Version             string
	Read, Write, Delete bool
	Retention           retentionXML
}

type corsRuleXML struct {
	AllowedOrigins, AllowedMethods, AllowedHeaders, ExposedHeaders string
	MaxAgeInSeconds                                                int
}

// propertiesDoc is a Set Service Properties body as read; a pointer is nil
// when its element is absent.
type propertiesDoc struct {
	Logging       *loggingXML
	HourMetrics   *metricsXML
	MinuteMetrics *metricsXML
	Cors          *struct{ Rules []corsRuleXML }
}

// open allocates a section when it first appears (a repeated one adds to
// it) and a CORS rule at each CorsRule, and wants the text of the fields.
func (d *propertiesDoc) open(p [][]byte) bool {
	switch string(p[0]) {
	case "Logging":
		if d.Logging == nil {
			d.Logging = new(loggingXML)
		}
		return loggingField(d.Logging, p[1:]) != nil
	case "HourMetrics", "MinuteMetrics":
		m := d.metrics(string(p[0]))
		if *m == nil {
			*m = new(metricsXML)
		}
		return metricsField(*m, p[1:]) != nil
	case "Cors":
		if d.Cors == nil {
			d.Cors = new(struct{ Rules []corsRuleXML })
		}
		if len(p) == 2 && string(p[1]) == "CorsRule" {
			// Past one rule over the limit (which refuses the document),
			// a rule reuses the last place: a body of rules costs no more.
			if len(d.Cors.Rules) > store.MaxCorsRules {
				d.Cors.Rules[len(d.Cors.Rules)-1] = corsRuleXML{}
			} else {
				d.Cors.Rules = append(d.Cors.Rules, corsRuleXML{})
			}
		}
		if len(p) == 3 && string(p[1]) == "CorsRule" {
			return corsField(&d.Cors.Rules[len(d.Cors.Rules)-1], p[2]) != nil
		}
	}
	return false
}

func (d *propertiesDoc) close(p [][]byte, text []byte) bool {
	var dst any
	switch string(p[0]) {
	case "Logging":
		dst = loggingField(d.Logging, p[1:])
	case "HourMetrics", "MinuteMetrics":
		dst = metricsField(*d.metrics(string(p[0])), p[1:])
	case "Cors":
		dst = corsField(&d.Cors.Rules[len(d.Cors.Rules)-1], p[2])
	}
	return setXMLValue(dst, text)
}

func (d *propertiesDoc) metrics(name string) **metricsXML {
	if name == "HourMetrics" {
		return &d.HourMetrics
	}
	return &d.MinuteMetrics
}

// loggingField, metricsField, retentionField and corsField point to the
// field a path below their element names, or are nil.
func loggingField(l *loggingXML, p [][]byte) any {
	if len(p) == 1 {
		switch string(p[0]) {
		case "Version":
			return &l.Version
		case "Read":
			return &l.Read
		case "Write":
			return &l.Write
		case "Delete":
			return &l.Delete
		}
	}
	return retentionField(&l.Retention, p)
}

func metricsField(m *metricsXML, p [][]byte) any {
	if len(p) == 1 {
		switch string(p[0]) {
		case "Version":
			return &m.Version
		case "Enabled":
			return &m.Enabled
		case "IncludeAPIs":
			return &m.IncludeAPIs
		}
	}
	return retentionField(&m.Retention, p)
}

func retentionField(r *retentionXML, p [][]byte) any {
	if len(p) == 2 && string(p[0]) == "RetentionPolicy" {
		switch string(p[1]) {
		case "Enabled":
			return &r.Enabled
		case "Days":
			return &r.Days
		}
	}
	return nil
}

func corsField(r *corsRuleXML, name []byte) any {
	switch string(name) {
	case "AllowedOrigins":
		return &r.AllowedOrigins
	case "AllowedMethods":
		return &r.AllowedMethods
	case "AllowedHeaders":
		return &r.AllowedHeaders
	case "ExposedHeaders":
		return &r.ExposedHeaders
	case "MaxAgeInSeconds":
		return &r.MaxAgeInSeconds
	}
	return nil
}

// setXMLValue stores an element's text as encoding/xml does: a string as
// it is; a bool or an int from the text without surrounding space (an
// empty text is false or 0, other text must parse); a pointer is set to a
// new value.
func setXMLValue(dst any, text []byte) bool {
	switch v := dst.(type) {
	case *string:
		*v = string(text)
	case *bool:
		b, ok := xmlBool(text)
		*v = b
		return ok
	case **bool:
		b, ok := xmlBool(text)
		*v = &b
		return ok
	case *int:
		n, ok := xmlInt(text)
		*v = n
		return ok
	case **int:
		n, ok := xmlInt(text)
		*v = &n
		return ok
	}
	return true
}

func xmlBool(text []byte) (bool, bool) {
	if len(text) == 0 {
		return false, true
	}
	b, err := strconv.ParseBool(strings.TrimSpace(string(text)))
	return b, err == nil
}

func xmlInt(text []byte) (int, bool) {
	if len(text) == 0 {
		return 0, true
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	return int(n), err == nil
}

// mergeProperties applies a Set Service Properties body to the current
// settings: an element left out keeps its setting.
func mergeProperties(cur store.ServiceProperties, body []byte) (store.ServiceProperties, *tableerr.Error) {
	var d propertiesDoc
	if !xmlWithinDepth(body, maxXMLDepth) || !readXML(body, "StorageServiceProperties", &d) {
		return cur, tableerr.New(tableerr.InvalidXMLDocument)
	}
	return applyProperties(cur, d)
}

// applyProperties checks the settings read and applies them to cur.
func applyProperties(cur store.ServiceProperties, d propertiesDoc) (store.ServiceProperties, *tableerr.Error) {
	days := func(r retentionXML) (int, bool) {
		if !r.Enabled {
			return 0, true
		}
		if r.Days == nil || *r.Days < 1 || *r.Days > 365 {
			return 0, false
		}
		return *r.Days, true
	}
	if l := d.Logging; l != nil {
		n, ok := days(l.Retention)
		if !ok {
			return cur, tableerr.New(tableerr.InvalidXMLDocument)
		}
		cur.Logging = store.Logging{Version: l.Version, Read: l.Read, Write: l.Write, Delete: l.Delete, RetentionEnabled: l.Retention.Enabled, RetentionDays: n}
	}
	for _, m := range []struct {
		in  *metricsXML
		dst *store.Metrics
	}{{d.HourMetrics, &cur.HourMetrics}, {d.MinuteMetrics, &cur.MinuteMetrics}} {
		if m.in == nil {
			continue
		}
		n, ok := days(m.in.Retention)
		if !ok || m.in.Enabled && m.in.IncludeAPIs == nil {
			return cur, tableerr.New(tableerr.InvalidXMLDocument)
		}
		*m.dst = store.Metrics{Version: m.in.Version, Enabled: m.in.Enabled, IncludeAPIs: m.in.IncludeAPIs, RetentionEnabled: m.in.Retention.Enabled, RetentionDays: n}
	}
	if c := d.Cors; c != nil {
		if len(c.Rules) > store.MaxCorsRules {
			return cur, tableerr.New(tableerr.InvalidXMLDocument)
		}
		cur.Cors = nil
		for _, r := range c.Rules {
			if r.AllowedOrigins == "" || r.AllowedMethods == "" || r.MaxAgeInSeconds < 0 {
				return cur, tableerr.New(tableerr.InvalidXMLDocument)
			}
			cur.Cors = append(cur.Cors, store.CorsRule{AllowedOrigins: r.AllowedOrigins, AllowedMethods: r.AllowedMethods,
				AllowedHeaders: r.AllowedHeaders, ExposedHeaders: r.ExposedHeaders, MaxAgeInSeconds: r.MaxAgeInSeconds})
		}
	}
	return cur, nil
}

// statsXML answers Get Service Stats: tableplay has one copy of the data,
// always current.
func statsXML(now time.Time) []byte {
	return []byte(xmlHead + "<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>" +
		now.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT") + "</LastSyncTime></GeoReplication></StorageServiceStats>")
}

// errorXML is an error body for the XML endpoints.
func errorXML(e *tableerr.Error, id string, now time.Time) []byte {
	var b bytes.Buffer
	b.WriteString(xmlHead + "<Error><Code>" + string(e.Code) + "</Code><Message>")
	xmlText(&b, e.Message+"\nRequestId:"+id+"\nTime:"+time7(edm.TicksFromTime(now)))
	b.WriteString("</Message></Error>")
	return b.Bytes()
}
