package store

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Cosmos DB for Table returns a query's entities in an order that follows
// neither key (F-COSMOS-ORDER); the profile's WriteOrder is the order of
// the entities' last writes, keys breaking ties. Its continuation is the
// Cosmos form (F-COSMOS-TOKENS): NextPartitionKey an opaque JSON document,
// NextRowKey "NA".

// CosmosRowToken is the NextRowKey of a write-order page.
const CosmosRowToken = "NA"

// The text around the opaque part of a write-order NextPartitionKey, as
// the Cosmos endpoint writes its own.
const (
	cosmosTokenHead = `{"token":"`
	cosmosTokenTail = `","range":{"min":"","max":"FF"}}`
	// maxCosmosToken bounds the token read: two keys of at most 1 KiB
	// (as UTF-16), their UTF-8 and base64 growth, and the Timestamp.
	maxCosmosToken = 16 << 10
)

// writePos is where a write-order page resumes: the first entity at or
// after it in (Timestamp, PartitionKey, RowKey) order.
type writePos struct {
	at     edm.Ticks
	pk, rk string
}

func writeLess(r *row, p writePos) bool {
	if r.ts != p.at {
		return r.ts < p.at
	}
	pk, rk := r.keys()
	if pk != p.pk {
		return pk < p.pk
	}
	return rk < p.rk
}

func writeCompare(a, b *row) int {
	apk, ark := a.keys()
	bpk, brk := b.keys()
	return cmp.Or(cmp.Compare(a.ts, b.ts), strings.Compare(apk, bpk), strings.Compare(ark, brk))
}

// EncodeCosmosToken makes the NextPartitionKey naming the entity a
// write-order page resumes at.
func EncodeCosmosToken(at edm.Ticks, pk, rk string) string {
	raw := strconv.FormatInt(int64(at), 16) + "\x01" + pk + "\x01" + rk
	return cosmosTokenHead + base64.StdEncoding.EncodeToString([]byte(raw)) + cosmosTokenTail
}

// decodeCosmosToken reads a token EncodeCosmosToken made. Keys hold no
// control characters (F-KEY-CHARACTERS), so 0x01 separates them.
func decodeCosmosToken(tok string) (writePos, bool) {
	if len(tok) > maxCosmosToken {
		return writePos{}, false
	}
	body, ok := strings.CutPrefix(tok, cosmosTokenHead)
	if !ok {
		return writePos{}, false
	}
	if body, ok = strings.CutSuffix(body, cosmosTokenTail); !ok {
		return writePos{}, false
	}
	raw, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return writePos{}, false
	}
	parts := strings.Split(string(raw), "\x01")
	if len(parts) != 3 {
		return writePos{}, false
	}
	at, err := strconv.ParseInt(parts[0], 16, 64)
	if err != nil || at < 0 {
		return writePos{}, false
	}
	return writePos{at: edm.Ticks(at), pk: parts[1], rk: parts[2]}, true
}

// queryWriteOrder answers a page of q in write order: every match in the
// filter's key range is looked at, so a page costs a scan of that range
// (the profile is a playground for Cosmos's answers, not its
// performance), but only the first top+1 in write order are kept, at most
// twice that many at a time, so a page holds no more than about two pages
// whatever the table's size.
func (t *table) queryWriteOrder(q Query, top int) (Page, *tableerr.Error) {
	var page Page
	from := writePos{at: -1 << 62}
	if q.NextPartitionKey != "" || q.NextRowKey != "" {
		p, ok := decodeCosmosToken(q.NextPartitionKey)
		if !ok || q.NextRowKey != CosmosRowToken {
			return Page{}, tableerr.New(tableerr.InvalidInput)
		}
		from = p
	}
	r := filter.KeyRange(q.Filter)
	if r.Empty {
		return page, nil
	}
	match := filter.Compile(q.Filter)
	keep := top + 1 // the page and the entity its token names
	var best []*row
	v := t.view()
	rec := record{dict: t.names.load()} // after the view: see names
	var keys entity.Entity
	v.Ascend(probe("", ""), func(it item) bool {
		rw := it.r
		pk, rk := rw.keys()
		page.Scanned++
		if !r.PKLow.AboveLow(pk) || !r.PKHigh.BelowHigh(pk) {
			return true
		}
		if r.PartitionFixed() && (!r.RKLow.AboveLow(rk) || !r.RKHigh.BelowHigh(rk)) {
			return true
		}
		if writeLess(rw, from) {
			return true
		}
		if q.Within != nil {
			keys.PartitionKey, keys.RowKey, keys.Timestamp = pk, rk, rw.ts
			if !q.Within(&keys) {
				return true
			}
		}
		if rec.r = rw; match != nil && !match(&rec) {
			return true
		}
		if best = append(best, rw); len(best) == 2*keep {
			slices.SortFunc(best, writeCompare)
			best = best[:keep]
		}
		return true
	})
	slices.SortFunc(best, writeCompare)
	best = best[:min(keep, len(best))]
	size := 0
	rows := make([]*row, 0, min(top, len(best)))
	for _, rw := range best {
		n := int(rw.size)
		if len(rows) == top || len(rows) > 0 && size+n > MaxPageBytes {
			pk, rk := rw.keys()
			page.NextPartitionKey = EncodeCosmosToken(rw.ts, pk, rk)
			page.NextRowKey = CosmosRowToken
			break
		}
		rows = append(rows, rw)
		size += n
	}
	page.Entities = entities(rows, rec.dict, t.cache)
	return page, nil
}
