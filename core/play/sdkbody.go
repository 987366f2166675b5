package play

import (
	"encoding/json"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
)

// sdkDateTime is the layout aztables writes an EDMDateTime with.
const sdkDateTime = "2006-01-02T15:04:05.9999999Z"

// sdkBody is the JSON body the Go SDK (aztables v1.4.1, EDMEntity) sends for
// an entity: a Go map marshalled by encoding/json — keys in byte order, each
// "X@odata.type" annotation right after "X", Int64 as a string, DateTime in
// RFC 3339 with up to 7 fractional digits, Binary as base64, and doubles as
// encoding/json writes float64 (an integral 2.0 becomes 2, which the service
// then stores as an Int32). The SDK cannot send NaN or the infinities; they
// are shown as the annotated strings other SDKs send.
func sdkBody(e *entity.Entity) []byte {
	m := map[string]any{entity.PartitionKey: e.PartitionKey, entity.RowKey: e.RowKey}
	for _, p := range e.Properties {
		v := p.Value
		switch v.Type() {
		case edm.String:
			m[p.Name] = v.Str()
		case edm.Boolean:
			m[p.Name] = v.Bool()
		case edm.Int32:
			m[p.Name] = int32(v.Int())
		case edm.Double:
			if s, special := edm.DoubleSpecial(v.Float()); special {
				m[p.Name] = s
				m[p.Name+"@odata.type"] = "Edm.Double"
			} else {
				m[p.Name] = v.Float()
			}
		case edm.Int64, edm.Guid, edm.Binary:
			m[p.Name] = v.Text()
			m[p.Name+"@odata.type"] = v.Type().String()
		case edm.DateTime:
			m[p.Name] = v.Ticks().Time().Format(sdkDateTime)
			m[p.Name+"@odata.type"] = "Edm.DateTime"
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}
