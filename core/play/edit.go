package play

import (
	"strconv"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
)

// EditBody carries the editor's form back into the person's own JSON text:
// only the members whose key, value or type differ from what the text says
// are set or deleted in place, so the rest of the text keeps its order,
// spacing and number spelling. It answers {"body": text}, or {"error": …}
// when the text is not an entity body it can edit.
func (a *API) EditBody(body string, draftJSON []byte) []byte {
	var want Draft
	if err := readJSON(draftJSON, &want); err != nil {
		return errorJSON("not a draft: " + err.Error())
	}
	// Each edit copies the text once: more rows than an entity may hold
	// would make the cost grow with their square.
	if len(want.Properties) > entity.MaxProperties {
		return errorJSON("a draft holds at most " + strconv.Itoa(entity.MaxProperties) + " properties")
	}
	decoded, derr := odata.DecodeDraft([]byte(body))
	if derr != nil {
		return errorJSON(derr.Message)
	}
	have := draftOf(decoded, body)
	out := body
	var err error
	key := func(name string, old, now *string) {
		if err != nil || same(old, now) {
			return
		}
		if now == nil {
			out, err = sjson.Delete(out, name)
			return
		}
		out, err = sjson.SetRaw(out, name, string(edm.AppendJSONString(nil, *now)))
	}
	key(entity.PartitionKey, have.PartitionKey, want.PartitionKey)
	key(entity.RowKey, have.RowKey, want.RowKey)
	old := map[string]Row{}
	for _, r := range have.Properties {
		old[r.Name] = r
	}
	kept := map[string]bool{}
	for _, r := range want.Properties {
		kept[r.Name] = true
		if o, ok := old[r.Name]; ok && sameRow(o, r) {
			continue
		}
		annotation, value := rowJSON(r)
		path := gjson.Escape(r.Name)
		note := gjson.Escape(r.Name + "@odata.type")
		if err == nil {
			out, err = sjson.SetRaw(out, path, string(value))
		}
		if err == nil && annotation != "" {
			out, err = sjson.SetRaw(out, note, string(edm.AppendJSONString(nil, annotation)))
		} else if err == nil && gjson.Get(out, note).Exists() {
			out, err = sjson.Delete(out, note)
		}
	}
	for _, r := range have.Properties {
		if kept[r.Name] {
			continue
		}
		if err == nil {
			out, err = sjson.Delete(out, gjson.Escape(r.Name))
		}
		if note := gjson.Escape(r.Name + "@odata.type"); err == nil && gjson.Get(out, note).Exists() {
			out, err = sjson.Delete(out, note)
		}
	}
	if err != nil {
		return errorJSON(err.Error())
	}
	return mustJSON(map[string]string{"body": out})
}

func same(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// sameRow reports whether two rows mean the same member: the same text and
// the same type (String written with or without its prefix, or not at all).
func sameRow(a, b Row) bool {
	ta, oka := edmType(a.Type)
	tb, okb := edmType(b.Type)
	if oka != okb || !oka && a.Type != b.Type {
		return false
	}
	return ta == tb && a.Text == b.Text
}
