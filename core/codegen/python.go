package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/op"
)

// pyProgram writes a script for azure-data-tables 12.x, laid out as black
// would (four-space indents, double quotes).
func pyProgram(o op.Operation, opt Options) (string, error) {
	c := &coder{indent: "    "}
	body := &coder{indent: "    ", depth: 1}
	imports := map[string]bool{}
	if err := pyBody(body, o, opt, imports); err != nil {
		return "", err
	}
	c.line(opt.runsAgainst("# "))
	c.line("# pip install azure-data-tables")
	c.line("import json")
	c.line("import sys")
	if imports["datetime"] {
		c.line("from datetime import datetime, timezone")
	}
	if imports["uuid"] {
		c.line("from uuid import UUID")
	}
	c.line("")
	if imports["match"] {
		c.line("from azure.core import MatchConditions")
	}
	c.line("from azure.core.exceptions import HttpResponseError")
	names := []string{"TableServiceClient"}
	if imports["edm"] {
		names = append([]string{"EdmType", "EntityProperty"}, names...)
	}
	if imports["mode"] {
		names = append(names, "UpdateMode")
	}
	c.line("from azure.data.tables import " + strings.Join(names, ", "))
	c.line("")
	c.line(opt.credentialNote("# "))
	c.line("CONNECTION_STRING = (")
	for _, part := range strings.SplitAfter(opt.connectionString(), ";") {
		if part != "" {
			c.line("    " + jsString(part))
		}
	}
	c.line(")")
	c.line("")
	if readsEntities(o) {
		c.line("")
		c.open("def print_entity(entity):")
		c.line(`"""Prints an entity as the SDK decoded it."""`)
		c.line(`print("entity", entity["PartitionKey"], entity["RowKey"])`)
		c.open("for name, value in entity.items():")
		c.open(`if name not in ("PartitionKey", "RowKey"):`)
		c.line(`print(f"  {name} = {value!r}")`)
		c.close("")
		c.depth -= 2
		c.line("")
	}
	c.line("")
	c.line("def main():")
	c.b.WriteString(body.String())
	c.line("")
	c.line("")
	c.open(`if __name__ == "__main__":`)
	c.open("try:")
	c.line("main()")
	c.close("except HttpResponseError as err:")
	c.depth++
	c.line("# The service names its error in the body; the SDK often leaves error_code None.")
	c.line(`answer = err.response.text() if err.response is not None else ""`)
	c.line(`code = getattr(err, "error_code", None)`)
	c.open("try:")
	c.line(`code = code or json.loads(answer)["odata.error"]["code"]`)
	c.close("except (ValueError, KeyError, TypeError):")
	c.depth++
	c.line("pass")
	c.depth--
	c.line(`print(err.status_code, code, answer or err.message, file=sys.stderr)`)
	c.line("sys.exit(1)")
	return strings.TrimRight(c.String(), "\n") + "\n", nil
}

// pyBody writes main's statements: the write its row names, or the kind's
// own statements.
func pyBody(c *coder, o op.Operation, opt Options, imports map[string]bool) error {
	c.line("service = TableServiceClient.from_connection_string(CONNECTION_STRING)")
	if !serviceLevel(o.Kind) {
		c.line("client = service.get_table_client(" + jsString(batchTable(o)) + ")")
		if opt.createsTable(o.Kind) {
			c.line("# The example's table, created first (kept when it exists).")
			c.line("service.create_table_if_not_exists(" + jsString(batchTable(o)) + ")")
		}
	}
	if o.Kind.Spec().Writes {
		return pyWrite(c, o, imports)
	}
	switch o.Kind {
	case op.CreateTable:
		c.line("service.create_table(" + jsString(o.Table) + ")")
		c.line(`print("created table", ` + jsString(o.Table) + ")")
	case op.DeleteTable:
		c.line("service.delete_table(" + jsString(o.Table) + ")")
		c.line(`print("deleted table", ` + jsString(o.Table) + ")")
	case op.GetTable:
		c.line("# The SDK has no call for one table: query the tables by name.")
		c.line("name = " + jsString(o.Table))
		c.line("found = False")
		c.open(`for table in service.query_tables("TableName eq @name", parameters={"name": name}):`)
		c.line(`print("table", table.name)`)
		c.line("found = True")
		c.depth--
		c.open("if not found:")
		c.line(`sys.exit(f"table {name} not found")`)
		c.depth--
	case op.ListTables:
		args := []string{}
		call := "service.list_tables("
		if o.Query.Filter != nil {
			call = "service.query_tables(" + jsString(*o.Query.Filter)
			if o.Query.Top > 0 {
				call += ", "
			}
		}
		if o.Query.Top > 0 {
			args = append(args, "results_per_page="+strconv.Itoa(o.Query.Top))
		}
		page := ""
		if o.Query.NextTableName != "" {
			page = "continuation_token=" + jsString(o.Query.NextTableName)
		}
		c.line("# Each page ends where the service's continuation token says; the pager follows it.")
		c.line("pages = " + call + strings.Join(args, ", ") + ").by_page(" + page + ")")
		c.open("for n, page in enumerate(pages, 1):")
		c.line("tables = list(page)")
		c.line(`print(f"page {n}: {len(tables)} tables")`)
		c.open("for table in tables:")
		c.line(`print("table", table.name)`)
		c.depth -= 2
	case op.Query:
		call := "client.list_entities("
		var args []string
		if o.Query.Filter != nil {
			call = "client.query_entities("
			args = append(args, jsString(*o.Query.Filter))
		}
		if o.Query.Select != nil {
			args = append(args, "select="+jsSelect(*o.Query.Select))
		}
		if o.Query.Top > 0 {
			args = append(args, "results_per_page="+strconv.Itoa(o.Query.Top))
		}
		page := ""
		if o.Query.NextPartitionKey != "" {
			page = `continuation_token={"PartitionKey": ` + jsString(o.Query.NextPartitionKey) + `, "RowKey": ` + jsString(o.Query.NextRowKey) + "}"
		}
		c.line("# Each page ends where the service's continuation tokens say; the pager follows them.")
		c.line("pages = " + call + strings.Join(args, ", ") + ").by_page(" + page + ")")
		c.open("for n, page in enumerate(pages, 1):")
		c.line("entities = list(page)")
		c.line(`print(f"page {n}: {len(entities)} entities")`)
		c.open("for entity in entities:")
		c.line("print_entity(entity)")
		c.depth -= 2
	case op.Get:
		sel := ""
		if o.Query.Select != nil {
			sel = ", select=" + jsSelect(*o.Query.Select)
		}
		c.line("entity = client.get_entity(" + jsString(o.PartitionKey) + ", " + jsString(o.RowKey) + sel + ")")
		c.line(`print("etag", entity.metadata["etag"])`)
		c.line("print_entity(entity)")
	case op.Batch:
		c.line("operations = []")
		for i, p := range o.Operations {
			c.line(fmt.Sprintf("# Operation %d: %s.", i, p.Kind))
			name := fmt.Sprintf("entity%d", i)
			pyEntity(c, name, entityOf(p), keysOnly(p.Kind), imports)
			action, err := pyAction(p, name, imports)
			if err != nil {
				return err
			}
			c.line("operations.append(" + action + ")")
		}
		c.line("# All or nothing: one failing operation leaves the table unchanged.")
		c.line("client.submit_transaction(operations)")
		c.line(`print(f"transaction of {len(operations)} operations committed")`)
	default:
		return noCode(o.Kind, Python)
	}
	return nil
}

// pyAction is one operation tuple of submit_transaction.
func pyAction(p op.Operation, name string, imports map[string]bool) (string, error) {
	var kw []string
	verb, err := calls{addCall: "create", updateCall: "update", upsertCall: "upsert", deleteCall: "delete"}.name(p.Kind, Python, [2]string{})
	if err != nil {
		return "", err
	}
	if kind, merge := callOf(p.Kind); kind == updateCall || kind == upsertCall {
		kw = append(kw, `"mode": `+pyMode(merge))
		imports["mode"] = true
	}
	if conditional(p) {
		imports["match"] = true
		kw = append(kw, `"etag": `+jsString(etagOf(p)), `"match_condition": MatchConditions.IfNotModified`)
	}
	if len(kw) == 0 {
		return `("` + verb + `", ` + name + ")", nil
	}
	return `("` + verb + `", ` + name + ", {" + strings.Join(kw, ", ") + "})", nil
}

// pyMode is the UpdateMode of a merge or a replace.
func pyMode(merge bool) string {
	if merge {
		return "UpdateMode.MERGE"
	}
	return "UpdateMode.REPLACE"
}

// pyWrite writes one of the six writes.
func pyWrite(c *coder, o op.Operation, imports map[string]bool) error {
	cond := ""
	if conditional(o) {
		imports["match"] = true
		c.line("# Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied).")
		c.line("etag = " + jsString(etagOf(o)))
		cond = ", etag=etag, match_condition=MatchConditions.IfNotModified"
	} else if anyVersion(o) {
		c.line("# No ETag: the SDK sends If-Match: *, whatever version is stored.")
	}
	kind, merge := callOf(o.Kind)
	if kind == deleteCall {
		pk, rk := keys(o)
		c.line("client.delete_entity(" + jsString(pk) + ", " + jsString(rk) + cond + ")")
		c.line(`print("deleted")`)
		return nil
	}
	pyEntity(c, "entity", entityOf(o), false, imports)
	var call string
	switch kind {
	case addCall:
		call = "client.create_entity(entity)"
	case updateCall:
		call = "client.update_entity(entity, mode=" + pyMode(merge) + cond + ")"
	case upsertCall:
		call = "client.upsert_entity(entity, mode=" + pyMode(merge) + ")"
	default:
		return noCode(o.Kind, Python)
	}
	if kind != addCall {
		imports["mode"] = true
	}
	c.line("result = " + call)
	c.line(`print("etag", result["etag"])`)
	return nil
}

// pyEntity declares an entity dict.
func pyEntity(c *coder, name string, e *entity.Entity, keysOnly bool, imports map[string]bool) {
	c.open(name + " = {")
	c.line(`"PartitionKey": ` + jsString(e.PartitionKey) + ",")
	c.line(`"RowKey": ` + jsString(e.RowKey) + ",")
	if !keysOnly {
		for _, p := range e.Properties {
			v, comment := pyValue(p.Value, imports)
			line := jsString(p.Name) + ": " + v + ","
			if comment != "" {
				c.line("# " + comment)
			}
			c.line(line)
		}
	}
	c.close("}")
}

// pyValue writes a value as azure-data-tables sends its Edm type.
func pyValue(v edm.Value, imports map[string]bool) (string, string) {
	switch v.Type() {
	case edm.String:
		return jsString(v.Str()), ""
	case edm.Boolean:
		if v.Bool() {
			return "True", ""
		}
		return "False", ""
	case edm.Int32:
		return strconv.FormatInt(v.Int(), 10), ""
	case edm.Int64:
		imports["edm"] = true
		return "EntityProperty(" + strconv.FormatInt(v.Int(), 10) + ", EdmType.INT64)", ""
	case edm.Double:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			return `float("nan")`, ""
		case math.IsInf(f, 1):
			return `float("inf")`, ""
		case math.IsInf(f, -1):
			return `float("-inf")`, ""
		}
		return goFloat(f), ""
	case edm.Guid:
		imports["uuid"] = true
		return "UUID(" + jsString(v.Text()) + ")", ""
	case edm.Binary:
		return pyBytes(v.Bytes()), ""
	case edm.DateTime:
		t := v.Ticks().Time().UTC()
		if t.Nanosecond()%1000 != 0 {
			imports["edm"] = true
			return "EntityProperty(" + jsString(v.Text()) + ", EdmType.DATETIME)",
				"datetime holds microseconds: the 100 ns digit travels as the service's text"
		}
		imports["datetime"] = true
		return fmt.Sprintf("datetime(%d, %d, %d, %d, %d, %d, %d, tzinfo=timezone.utc)",
			t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000), ""
	}
	return "None", ""
}

// pyBytes writes a bytes literal.
func pyBytes(p []byte) string {
	var b strings.Builder
	b.WriteString(`b"`)
	for _, c := range p {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteString(`"`)
	return b.String()
}
