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

func writeLess(e *entity.Entity, p writePos) bool {
	if e.Timestamp != p.at {
		return e.Timestamp < p.at
	}
	if e.PartitionKey != p.pk {
		return e.PartitionKey < p.pk
	}
	return e.RowKey < p.rk
}

func writeCompare(a, b *entity.Entity) int {
	return cmp.Or(cmp.Compare(a.Timestamp, b.Timestamp), strings.Compare(a.PartitionKey, b.PartitionKey), strings.Compare(a.RowKey, b.RowKey))
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
	var best []*entity.Entity
	t.view().Ascend(probe("", ""), func(it item) bool {
		e := it.e
		page.Scanned++
		if !r.PKLow.AboveLow(e.PartitionKey) || !r.PKHigh.BelowHigh(e.PartitionKey) {
			return true
		}
		if r.PartitionFixed() && (!r.RKLow.AboveLow(e.RowKey) || !r.RKHigh.BelowHigh(e.RowKey)) {
			return true
		}
		if writeLess(e, from) || q.Within != nil && !q.Within(e) || match != nil && !match(e, e.Properties) {
			return true
		}
		if best = append(best, e); len(best) == 2*keep {
			slices.SortFunc(best, writeCompare)
			best = best[:keep]
		}
		return true
	})
	slices.SortFunc(best, writeCompare)
	best = best[:min(keep, len(best))]
	size := 0
	page.Entities = make([]*entity.Entity, 0, min(top, len(best)))
	for _, e := range best {
		n := e.Size()
		if len(page.Entities) == top || len(page.Entities) > 0 && size+n > MaxPageBytes {
			page.NextPartitionKey = EncodeCosmosToken(e.Timestamp, e.PartitionKey, e.RowKey)
			page.NextRowKey = CosmosRowToken
			break
		}
		page.Entities = append(page.Entities, e)
		size += n
	}
	return page, nil
}
