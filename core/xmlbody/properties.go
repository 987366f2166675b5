package xmlbody

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/store"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Properties writes the service properties as the live service does.
func Properties(p store.ServiceProperties) []byte {
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
		escapeText(&b, m.Version)
		b.WriteString("</Version><Enabled>" + boolS(m.Enabled) + "</Enabled>")
		if m.Enabled {
			inc := m.IncludeAPIs != nil && *m.IncludeAPIs
			b.WriteString("<IncludeAPIs>" + boolS(inc) + "</IncludeAPIs>")
		}
		retention(m.RetentionEnabled, m.RetentionDays)
		b.WriteString("</" + name + ">")
	}
	b.WriteString(head + "<StorageServiceProperties><Logging><Version>")
	escapeText(&b, p.Logging.Version)
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
				escapeText(&b, f[1])
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
	return setValue(dst, text)
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

// setValue stores an element's text as encoding/xml does: a string as
// it is; a bool or an int from the text without surrounding space (an
// empty text is false or 0, other text must parse); a pointer is set to a
// new value.
func setValue(dst any, text []byte) bool {
	switch v := dst.(type) {
	case *string:
		*v = string(text)
	case *bool:
		b, ok := textBool(text)
		*v = b
		return ok
	case **bool:
		b, ok := textBool(text)
		*v = &b
		return ok
	case *int:
		n, ok := textInt(text)
		*v = n
		return ok
	case **int:
		n, ok := textInt(text)
		*v = &n
		return ok
	}
	return true
}

func textBool(text []byte) (bool, bool) {
	if len(text) == 0 {
		return false, true
	}
	b, err := strconv.ParseBool(strings.TrimSpace(string(text)))
	return b, err == nil
}

func textInt(text []byte) (int, bool) {
	if len(text) == 0 {
		return 0, true
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	return int(n), err == nil
}

// MergeProperties applies a Set Service Properties body to the current
// settings: an element left out keeps its setting.
func MergeProperties(cur store.ServiceProperties, body []byte) (store.ServiceProperties, *tableerr.Error) {
	var d propertiesDoc
	if !withinDepth(body, maxDepth) || !readDoc(body, "StorageServiceProperties", &d) {
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
