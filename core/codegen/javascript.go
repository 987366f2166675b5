package codegen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
)

// jsProgram writes a Node.js script (CommonJS) for @azure/data-tables 13.x,
// indented with two spaces as Prettier would.
func jsProgram(o op.Operation, opt Options) (string, error) {
	c := &coder{indent: "  "}
	c.line(opt.runsAgainst("// "))
	c.line("// npm install @azure/data-tables@13")
	switch {
	case o.Kind == op.GetTable: // its filter is built with odata``
		c.line(`const { TableServiceClient, odata } = require("@azure/data-tables");`)
	case serviceLevel(o.Kind):
		c.line(`const { TableServiceClient } = require("@azure/data-tables");`)
	default:
		c.line(`const { TableClient } = require("@azure/data-tables");`)
	}
	c.line("")
	c.line(opt.credentialNote("// "))
	c.line("const connectionString =")
	c.line("  " + jsString(opt.connectionString()) + ";")
	c.line("// allowInsecureConnection: the emulator speaks http.")
	c.line("const options = { allowInsecureConnection: true };")
	c.line("")
	if readsEntities(o) {
		c.line("// Prints an entity as the SDK decoded it.")
		c.open("function printEntity(e) {")
		c.line(`console.log("entity", e.partitionKey, e.rowKey);`)
		c.open("for (const [name, value] of Object.entries(e)) {")
		c.line(`if (["partitionKey", "rowKey", "etag", "timestamp", "odata.metadata"].includes(name)) continue;`)
		c.line("console.log(`  ${name} =`, value);")
		c.close("}")
		c.close("}")
		c.line("")
	}
	c.open("async function main() {")
	if serviceLevel(o.Kind) {
		c.line("const service = TableServiceClient.fromConnectionString(connectionString, options);")
	} else {
		c.line("const client = TableClient.fromConnectionString(connectionString, " + jsString(batchTable(o)) + ", options);")
		if opt.createsTable(o.Kind) {
			c.line("// The example's table, created first (the SDK treats 409 TableAlreadyExists as success).")
			c.line("await client.createTable();")
		}
	}
	if err := jsBody(c, o); err != nil {
		return "", err
	}
	c.close("}")
	c.line("")
	c.open("main().catch((err) => {")
	c.line("// The service names its error in the body: the SDK keeps it in err.details.")
	c.line("const odataError = err.details?.odataError;")
	c.line("console.error(err.statusCode, err.code ?? odataError?.code, odataError?.message?.value ?? err.message);")
	c.line("process.exit(1);")
	c.close("});")
	return c.String(), nil
}

// jsBody writes main's statements: the write its row names, or the kind's
// own statements.
func jsBody(c *coder, o op.Operation) error {
	if o.Kind.Spec().Writes {
		return jsWrite(c, o)
	}
	switch o.Kind {
	case op.CreateTable:
		c.line("// Note: the SDK treats TableAlreadyExists as success.")
		c.line("await service.createTable(" + jsString(o.Table) + ");")
		c.line(`console.log("created table", ` + jsString(o.Table) + ");")
	case op.DeleteTable:
		c.line("// Note: the SDK treats a missing table (404) as success.")
		c.line("await service.deleteTable(" + jsString(o.Table) + ");")
		c.line(`console.log("deleted table", ` + jsString(o.Table) + ");")
	case op.GetTable:
		c.line("// The SDK has no call for one table: list the tables with a filter on the name.")
		c.line("const name = " + jsString(o.Table) + ";")
		c.line("let found = false;")
		c.open("for await (const t of service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } })) {")
		c.line(`console.log("table", t.name);`)
		c.line("found = true;")
		c.close("}")
		c.open("if (!found) {")
		c.line("throw new Error(`table ${name} not found`);")
		c.close("}")
	case op.ListTables:
		qo := jsQueryOptions(o.Query, false)
		c.line("const pages = service.listTables(" + qo + ").byPage(" + jsPageSettings(o.Query, true) + ");")
		c.line("// Each page ends where the service's continuation token says; the SDK follows it.")
		c.line("let n = 0;")
		c.open("for await (const page of pages) {")
		c.line("console.log(`page ${++n}: ${page.length} tables`);")
		c.open("for (const t of page) {")
		c.line(`console.log("table", t.name);`)
		c.close("}")
		c.close("}")
	case op.Query:
		c.line("const pages = client.listEntities(" + jsQueryOptions(o.Query, true) + ").byPage(" + jsPageSettings(o.Query, false) + ");")
		c.line("// Each page ends where the service's continuation tokens say; the SDK follows them.")
		c.line("let n = 0;")
		c.open("for await (const page of pages) {")
		c.line("console.log(`page ${++n}: ${page.length} entities`);")
		c.open("for (const e of page) {")
		c.line("printEntity(e);")
		c.close("}")
		c.close("}")
	case op.Get:
		opts := ""
		if o.Query.Select != nil {
			opts = ", { queryOptions: { select: " + jsSelect(*o.Query.Select) + " } }"
		}
		c.line("const e = await client.getEntity(" + jsString(o.PartitionKey) + ", " + jsString(o.RowKey) + opts + ");")
		c.line(`console.log("etag", e.etag);`)
		c.line("printEntity(e);")
	case op.Batch:
		c.line("const actions = [];")
		for i, p := range o.Operations {
			c.line(fmt.Sprintf("// Operation %d: %s.", i, p.Kind))
			ent := jsEntity(c, entityOf(p), keysOnly(p.Kind), fmt.Sprintf("entity%d", i))
			action, err := jsAction(p, ent)
			if err != nil {
				return err
			}
			c.line("actions.push(" + action + ");")
		}
		c.line("// All or nothing: one failing operation leaves the table unchanged.")
		c.line("await client.submitTransaction(actions);")
		c.line("console.log(`transaction of ${actions.length} operations committed`);")
	default:
		return noCode(o.Kind, JavaScript)
	}
	return nil
}

// jsAction is one TransactionAction tuple.
func jsAction(p op.Operation, ent string) (string, error) {
	etag := ""
	if conditional(p) {
		etag = ", { etag: " + jsString(etagOf(p)) + " }"
	}
	c, merge := callOf(p.Kind)
	mode := `"Replace"`
	if merge {
		mode = `"Merge"`
	}
	switch c {
	case addCall:
		return `["create", ` + ent + "]", nil
	case deleteCall:
		return `["delete", ` + ent + etag + "]", nil
	case updateCall:
		return `["update", ` + ent + ", " + mode + etag + "]", nil
	case upsertCall:
		return `["upsert", ` + ent + ", " + mode + "]", nil
	}
	return "", noCode(p.Kind, JavaScript)
}

// jsWrite writes one of the six writes.
func jsWrite(c *coder, o op.Operation) error {
	etag := ""
	if conditional(o) {
		c.line("// Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied).")
		c.line("const etag = " + jsString(etagOf(o)) + ";")
		etag = "{ etag }"
	} else if anyVersion(o) {
		c.line("// No ETag: the SDK sends If-Match: *, whatever version is stored.")
	}
	kind, merge := callOf(o.Kind)
	mode := `"Replace"`
	if merge {
		mode = `"Merge"`
	}
	if kind == deleteCall {
		pk, rk := keys(o)
		args := jsString(pk) + ", " + jsString(rk)
		if etag != "" {
			args += ", " + etag
		}
		c.line("await client.deleteEntity(" + args + ");")
		c.line(`console.log("deleted");`)
		return nil
	}
	ent := jsEntity(c, entityOf(o), false, "entity")
	var call string
	switch kind {
	case addCall:
		call = "client.createEntity(" + ent + ")"
	case updateCall:
		if etag != "" {
			mode += ", " + etag
		}
		call = "client.updateEntity(" + ent + ", " + mode + ")"
	case upsertCall:
		call = "client.upsertEntity(" + ent + ", " + mode + ")"
	default:
		return noCode(o.Kind, JavaScript)
	}
	c.line("const result = await " + call + ";")
	c.line(`console.log("etag", result.etag);`)
	return nil
}

// jsEntity declares the entity (keys only for a delete) and returns its
// variable's name; in a batch each action gets its own numbered name.
func jsEntity(c *coder, e *entity.Entity, keysOnly bool, name string) string {
	c.open("const " + name + " = {")
	c.line("partitionKey: " + jsString(e.PartitionKey) + ",")
	c.line("rowKey: " + jsString(e.RowKey) + ",")
	if !keysOnly {
		for _, p := range e.Properties {
			c.line(jsName(p.Name) + ": " + jsValue(p.Value) + ",")
		}
	}
	c.close("};")
	return name
}

// jsValue writes a value as @azure/data-tables sends its Edm type.
func jsValue(v edm.Value) string {
	switch v.Type() {
	case edm.String:
		return jsString(v.Str())
	case edm.Boolean:
		return strconv.FormatBool(v.Bool())
	case edm.Int32:
		return strconv.FormatInt(v.Int(), 10)
	case edm.Double:
		if _, special := edm.DoubleSpecial(v.Float()); special || integralDouble(v) {
			return `{ value: ` + jsString(v.Text()) + `, type: "Double" }`
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case edm.Int64:
		return `{ value: ` + jsString(v.Text()) + `, type: "Int64" }`
	case edm.Guid:
		return `{ value: ` + jsString(v.Text()) + `, type: "Guid" }`
	case edm.Binary:
		return `Buffer.from(` + jsString(v.Text()) + `, "base64")`
	case edm.DateTime:
		return `{ value: ` + jsString(v.Text()) + `, type: "DateTime" }`
	}
	return "undefined"
}

// jsQueryOptions is the listEntities / listTables options argument.
func jsQueryOptions(q op.Options, entities bool) string {
	var parts []string
	if q.Filter != nil {
		parts = append(parts, "filter: "+jsString(*q.Filter))
	}
	if q.Select != nil && entities {
		parts = append(parts, "select: "+jsSelect(*q.Select))
	}
	if len(parts) == 0 {
		return ""
	}
	return "{ queryOptions: { " + strings.Join(parts, ", ") + " } }"
}

// jsPageSettings is byPage's argument: $top is the page size, and a
// continuation token resumes where a previous page ended.
func jsPageSettings(q op.Options, tables bool) string {
	var parts []string
	if q.Top > 0 {
		parts = append(parts, "maxPageSize: "+strconv.Itoa(q.Top))
	}
	if tables && q.NextTableName != "" {
		parts = append(parts, "continuationToken: "+jsString(q.NextTableName))
	}
	if !tables && q.NextPartitionKey != "" {
		// The SDK's token is the two keys as JSON, base64-encoded.
		tok, _ := json.Marshal(map[string]string{"nextPartitionKey": q.NextPartitionKey, "nextRowKey": q.NextRowKey})
		parts = append(parts, "continuationToken: Buffer.from("+jsString(string(tok))+`).toString("base64")`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// jsSelect writes $select as the array of names the SDK takes.
func jsSelect(sel string) string {
	var names []string
	for _, n := range strings.Split(sel, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, jsString(n))
		}
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// jsName writes a property name as an object key.
func jsName(n string) string {
	ident := n != ""
	for i, r := range n {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
		}
	}
	if ident {
		return n
	}
	return jsString(n)
}

// jsString is a double-quoted string literal valid in JavaScript, Python and
// C# (JSON's escapes are a subset of each).
func jsString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
