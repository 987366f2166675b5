package dialect

import (
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/store"
)

// Continuation is the continuation of a query page that ends before next,
// in the implementation's form: the keys of next (F-CONTINUATION-TOKEN),
// or under write order Cosmos DB's opaque token (F-COSMOS-TOKENS).
func (d *Dialect) Continuation(next *entity.Entity) (pk, rk string) {
	if d.p.Order == profile.WriteOrder {
		return store.EncodeCosmosToken(next.Timestamp, next.PartitionKey, next.RowKey), store.CosmosRowToken
	}
	return store.EncodeToken(next.PartitionKey), store.EncodeToken(next.RowKey)
}
