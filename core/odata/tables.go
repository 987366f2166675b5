package odata

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/profile"
)

// AppendTable appends a single-table body (create table with return-content,
// get table): {"odata.metadata":"…#Tables/@Element","TableName":"name"}.
func AppendTable(b []byte, c *Context, name string) []byte {
	if c.Style == profile.CosmosBodies { // the metadata last (F-COSMOS-BODIES)
		b = append(b, '{')
		b = appendTableMembers(b, c, name)
		return appendTrailingMetadata(b, c, "/$metadata#Tables/@Element")
	}
	b = append(b, '{')
	if c.Level != NoMetadata {
		b = append(b, `"odata.metadata":`...)
		b = edm.AppendJSONString(b, c.Base+"/$metadata#Tables/@Element")
		b = append(b, ',')
	}
	b = appendTableMembers(b, c, name)
	return append(b, '}')
}

// AppendTables appends a query-tables body: {"odata.metadata":"…#Tables","value":[…]}.
func AppendTables(b []byte, c *Context, names []string) []byte {
	cosmos := c.Style == profile.CosmosBodies
	b = append(b, '{')
	if c.Level != NoMetadata && !cosmos {
		b = append(b, `"odata.metadata":`...)
		b = edm.AppendJSONString(b, c.Base+"/$metadata#Tables")
		b = append(b, ',')
	}
	b = append(b, `"value":[`...)
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = appendTableMembers(b, c, n)
		b = append(b, '}')
	}
	b = append(b, ']')
	if cosmos { // the metadata last (F-COSMOS-BODIES)
		return appendTrailingMetadata(b, c, "/$metadata#Tables")
	}
	return append(b, '}')
}

func appendTableMembers(b []byte, c *Context, name string) []byte {
	if c.Level == FullMetadata {
		b = append(b, `"odata.type":`...)
		b = edm.AppendJSONString(b, c.Account+".Tables")
		b = append(b, `,"odata.id":`...)
		b = edm.AppendJSONString(b, c.Base+"/"+TablePath(name))
		b = append(b, `,"odata.editLink":`...)
		b = edm.AppendJSONString(b, TablePath(name))
		b = append(b, ',')
	}
	b = append(b, `"TableName":`...)
	return edm.AppendJSONString(b, name)
}
