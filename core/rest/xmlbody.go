package rest

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// xmlHead starts every XML body the service writes: a UTF-8 byte-order mark
// and the declaration (live recordings).
const xmlHead = "\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>"

func xmlText(b *bytes.Buffer, s string) { xml.EscapeText(b, []byte(s)) }

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

type aclDoc struct {
	XMLName xml.Name `xml:"SignedIdentifiers"`
	IDs     []struct {
		ID     string `xml:"Id"`
		Policy *struct {
			Start      *string `xml:"Start"`
			Expiry     *string `xml:"Expiry"`
			Permission *string `xml:"Permission"`
		} `xml:"AccessPolicy"`
	} `xml:"SignedIdentifier"`
}

// parseACL reads a Set Table ACL body. Times may be dates or date-times;
// permissions are letters from raud.
func parseACL(body []byte) ([]store.SignedIdentifier, *tableerr.Error) {
	var d aclDoc
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	if !xmlWithinDepth(body, maxXMLDepth) || xml.Unmarshal(body, &d) != nil {
		return nil, tableerr.New(tableerr.InvalidXMLDocument)
	}
	out := make([]store.SignedIdentifier, 0, len(d.IDs))
	for _, x := range d.IDs {
		id := store.SignedIdentifier{ID: x.ID}
		if p := x.Policy; p != nil {
			for _, f := range []struct {
				v   *string
				dst **edm.Ticks
			}{{p.Start, &id.Start}, {p.Expiry, &id.Expiry}} {
				if f.v == nil || strings.TrimSpace(*f.v) == "" {
					continue
				}
				t, ok := sasTime(strings.TrimSpace(*f.v))
				if !ok {
					return nil, tableerr.New(tableerr.InvalidXMLDocument)
				}
				ticks := edm.TicksFromTime(t)
				*f.dst = &ticks
			}
			if p.Permission != nil {
				perm := strings.TrimSpace(*p.Permission)
				if strings.Trim(perm, "raud") != "" {
					return nil, tableerr.New(tableerr.InvalidXMLDocument)
				}
				id.Permission = perm
			}
			// An <AccessPolicy/> without fields is kept as no policy, as
			// the service's read omits it (and as a snapshot restores it).
			id.HasPolicy = id.Start != nil || id.Expiry != nil || id.Permission != ""
		}
		out = append(out, id)
	}
	return out, nil
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
	Enabled bool `xml:"Enabled"`
	Days    *int `xml:"Days"`
}

type metricsXML struct {
	Version     string       `xml:"Version"`
	Enabled     bool         `xml:"Enabled"`
	IncludeAPIs *bool        `xml:"IncludeAPIs"`
	Retention   retentionXML `xml:"RetentionPolicy"`
}

type propertiesDoc struct {
	XMLName xml.Name `xml:"StorageServiceProperties"`
	Logging *struct {
		Version   string       `xml:"Version"`
		Read      bool         `xml:"Read"`
		Write     bool         `xml:"Write"`
		Delete    bool         `xml:"Delete"`
		Retention retentionXML `xml:"RetentionPolicy"`
	} `xml:"Logging"`
	HourMetrics   *metricsXML `xml:"HourMetrics"`
	MinuteMetrics *metricsXML `xml:"MinuteMetrics"`
	Cors          *struct {
		Rules []struct {
			AllowedOrigins  string `xml:"AllowedOrigins"`
			AllowedMethods  string `xml:"AllowedMethods"`
			AllowedHeaders  string `xml:"AllowedHeaders"`
			ExposedHeaders  string `xml:"ExposedHeaders"`
			MaxAgeInSeconds int    `xml:"MaxAgeInSeconds"`
		} `xml:"CorsRule"`
	} `xml:"Cors"`
}

// mergeProperties applies a Set Service Properties body to the current
// settings: an element left out keeps its setting.
func mergeProperties(cur store.ServiceProperties, body []byte) (store.ServiceProperties, *tableerr.Error) {
	var d propertiesDoc
	if !xmlWithinDepth(body, maxXMLDepth) || xml.Unmarshal(body, &d) != nil {
		return cur, tableerr.New(tableerr.InvalidXMLDocument)
	}
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
