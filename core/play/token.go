package play

import (
	"strings"

	"github.com/tableplay/tableplay/core/store"
)

// Continuation is DecodeContinuation's answer: each continuation token the
// page was given, with the key it names.
type Continuation struct {
	// PartitionKey is the NextPartitionKey token; nil when none was given.
	PartitionKey *Token `json:"partitionKey,omitempty"`
	// RowKey is the NextRowKey token; nil when none was given.
	RowKey *Token `json:"rowKey,omitempty"`
	// TableName is the NextTableName token; nil when none was given.
	TableName *Token `json:"tableName,omitempty"`
	// Says where the next page starts, in a sentence.
	Says string `json:"says,omitempty"`
}

// Token is one continuation token: Raw as the service sent it and Key, the
// key it names (Valid false when it names none).
type Token struct {
	// Raw is the token as the service sent it.
	Raw string `json:"raw"`
	// Key is the key it names (a NextTableName token's name alone).
	Key string `json:"key"`
	// Valid says the token decodes to a key.
	Valid bool `json:"valid"`
}

func decodeToken(raw string) *Token {
	if raw == "" {
		return nil
	}
	k, ok := store.DecodeToken(raw)
	return &Token{Raw: raw, Key: k, Valid: ok}
}

// DecodeContinuation reads the continuation tokens of an operation (JSON
// with nextPartitionKey, nextRowKey, nextTableName): a token is the key's
// base64 behind "1!<length>!", the next page starting at that key, included
// (F-CONTINUATION-TOKEN). A NextTableName token also carries the table's
// creation time after a byte 0x01; only the name is shown.
func (a *API) DecodeContinuation(opJSON []byte) []byte {
	var op Operation
	if err := readJSON(opJSON, &op); err != nil {
		return errorJSON("not an operation: " + err.Error())
	}
	c := Continuation{PartitionKey: decodeToken(op.NextPartitionKey), RowKey: decodeToken(op.NextRowKey), TableName: decodeToken(op.NextTableName)}
	if c.TableName != nil {
		if i := strings.IndexByte(c.TableName.Key, 1); i >= 0 {
			c.TableName.Key = c.TableName.Key[:i]
		}
	}
	switch {
	case c.PartitionKey != nil && c.PartitionKey.Valid && (c.RowKey == nil || c.RowKey.Valid):
		c.Says = a.Locale.T(msgTokenPartition, "pk", quoteKey(c.PartitionKey.Key))
		if c.RowKey != nil {
			c.Says = a.Locale.T(msgTokenPartitionRow, "pk", quoteKey(c.PartitionKey.Key), "rk", quoteKey(c.RowKey.Key))
		}
	case c.TableName != nil && c.TableName.Valid:
		c.Says = a.Locale.T(msgTokenTable, "table", quoteKey(c.TableName.Key))
	case c.PartitionKey != nil || c.RowKey != nil || c.TableName != nil:
		c.Says = a.Locale.T(msgTokenInvalid)
	}
	return mustJSON(c)
}
