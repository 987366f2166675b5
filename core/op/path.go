package op

import (
	"net/url"
	"strings"
)

// EntityPath is the path, below the account, that addresses one entity the
// way the SDKs write it: quotes doubled inside the key literals, then each
// key escaped for the path.
func EntityPath(table, pk, rk string) string {
	key := func(s string) string { return url.PathEscape(strings.ReplaceAll(s, "'", "''")) }
	return "/" + url.PathEscape(table) + "(PartitionKey='" + key(pk) + "',RowKey='" + key(rk) + "')"
}
