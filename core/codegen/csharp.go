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

// csProgram writes a C# program with top-level statements for
// Azure.Data.Tables 12.x, in the .NET conventions (four spaces, braces on
// their own lines).
func csProgram(o op.Operation, opt Options) (string, error) {
	c := &coder{indent: "    "}
	c.line(opt.runsAgainst("// "))
	c.line("// dotnet add package Azure.Data.Tables")
	c.line("using System;")
	if o.Kind.Body() == op.BatchBody { // a List of actions
		c.line("using System.Collections.Generic;")
	}
	c.line("using Azure;")
	c.line("using Azure.Data.Tables;")
	c.line("")
	c.line(opt.credentialNote("// "))
	c.line("const string connectionString =")
	c.line("    " + jsString(opt.connectionString()) + ";")
	c.line("var service = new TableServiceClient(connectionString);")
	if !serviceLevel(o.Kind) {
		c.line("var client = service.GetTableClient(" + jsString(batchTable(o)) + ");")
		if opt.createsTable(o.Kind) {
			c.line("// The example's table, created first (kept when it exists).")
			c.line("client.CreateIfNotExists();")
		}
	}
	c.line("")
	c.open("try")
	if err := csBody(c, o); err != nil {
		return "", err
	}
	c.close("}")
	c.open("catch (RequestFailedException e)")
	c.line(`Console.Error.WriteLine($"{e.Status} {e.ErrorCode} {e.Message}");`)
	c.line("return 1;")
	c.close("}")
	c.line("return 0;")
	if readsEntities(o) {
		c.line("")
		c.line("// Prints an entity as the SDK decoded it.")
		c.open("static void PrintEntity(TableEntity entity)")
		c.line(`Console.WriteLine($"entity {entity.PartitionKey} {entity.RowKey}");`)
		c.open("foreach (var (name, value) in entity)")
		c.open(`if (name is not ("PartitionKey" or "RowKey" or "Timestamp" or "odata.etag"))`)
		c.line(`Console.WriteLine($"  {name} = {value} ({value?.GetType().Name})");`)
		c.close("}")
		c.close("}")
		c.close("}")
	}
	return fixBraces(c.String()), nil
}

// fixBraces puts the brace that opens each block on its own line, as .NET
// style has it (the coder writes the opening line only).
func fixBraces(s string) string {
	var b strings.Builder
	lines := strings.Split(s, "\n")
	depth := 0
	for i, l := range lines {
		b.WriteString(l)
		if i < len(lines)-1 {
			b.WriteByte('\n')
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if i+1 < len(lines) {
			next := lines[i+1]
			nextIndent := len(next) - len(strings.TrimLeft(next, " "))
			if strings.TrimSpace(next) != "" && nextIndent > indent && !strings.HasSuffix(l, "=") && !strings.HasSuffix(l, "{") && !strings.HasSuffix(l, "(") && !strings.HasSuffix(l, ",") {
				b.WriteString(strings.Repeat(" ", indent) + "{\n")
			}
		}
		_ = depth
	}
	return b.String()
}

// csBody writes the statements in try: the write its row names, or the
// kind's own statements.
func csBody(c *coder, o op.Operation) error {
	if o.Kind.Spec().Writes {
		return csWrite(c, o)
	}
	switch o.Kind {
	case op.CreateTable:
		c.line("service.CreateTable(" + jsString(o.Table) + ");")
		c.line(`Console.WriteLine("created table ` + csInterp(o.Table) + `");`)
	case op.DeleteTable:
		c.line("service.DeleteTable(" + jsString(o.Table) + ");")
		c.line(`Console.WriteLine("deleted table ` + csInterp(o.Table) + `");`)
	case op.GetTable:
		c.line("// The SDK has no call for one table: query the tables by name.")
		c.line("var name = " + jsString(o.Table) + ";")
		c.line("var found = false;")
		c.open("foreach (var table in service.Query(TableClient.CreateQueryFilter($\"TableName eq {name}\")))")
		c.line(`Console.WriteLine($"table {table.Name}");`)
		c.line("found = true;")
		c.close("}")
		c.open("if (!found)")
		c.line(`Console.Error.WriteLine($"table {name} not found");`)
		c.line("return 1;")
		c.close("}")
	case op.ListTables:
		token := ""
		if o.Query.NextTableName != "" {
			token = jsString(o.Query.NextTableName)
		}
		c.line("// Each page ends where the service's continuation token says; AsPages follows it.")
		c.line("var n = 0;")
		c.open("foreach (var page in service.Query(" + csQueryArgs(o.Query, false) + ").AsPages(" + token + "))")
		c.line(`Console.WriteLine($"page {++n}: {page.Values.Count} tables");`)
		c.open("foreach (var table in page.Values)")
		c.line(`Console.WriteLine($"table {table.Name}");`)
		c.close("}")
		c.close("}")
	case op.Query:
		token := ""
		if o.Query.NextPartitionKey != "" {
			// The SDK's token is the two keys separated by a space.
			token = jsString(o.Query.NextPartitionKey + " " + o.Query.NextRowKey)
		}
		c.line("// Each page ends where the service's continuation tokens say; AsPages follows them.")
		c.line("var n = 0;")
		c.line("var pages = client.Query<TableEntity>(" + csQueryArgs(o.Query, true) + ").AsPages(" + token + ");")
		c.open("foreach (var page in pages)")
		c.line(`Console.WriteLine($"page {++n}: {page.Values.Count} entities");`)
		c.open("foreach (var entity in page.Values)")
		c.line("PrintEntity(entity);")
		c.close("}")
		c.close("}")
	case op.Get:
		sel := ""
		if o.Query.Select != nil {
			sel = ", select: new[] { " + strings.Trim(jsSelect(*o.Query.Select), "[]") + " }"
		}
		c.line("TableEntity entity = client.GetEntity<TableEntity>(" + jsString(o.PartitionKey) + ", " + jsString(o.RowKey) + sel + ");")
		c.line(`Console.WriteLine($"etag {entity.ETag}");`)
		c.line("PrintEntity(entity);")
	case op.Batch:
		c.line("var actions = new List<TableTransactionAction>();")
		for i, p := range o.Operations {
			c.line(fmt.Sprintf("// Operation %d: %s.", i, p.Kind))
			name := fmt.Sprintf("entity%d", i)
			csEntity(c, name, entityOf(p), keysOnly(p.Kind))
			action, err := csAction(p, name)
			if err != nil {
				return err
			}
			c.line("actions.Add(" + action + ");")
		}
		c.line("// All or nothing: one failing operation leaves the table unchanged.")
		c.line("client.SubmitTransaction(actions);")
		c.line(`Console.WriteLine($"transaction of {actions.Count} operations committed");`)
	default:
		return noCode(o.Kind, CSharp)
	}
	return nil
}

// csAction is one TableTransactionAction.
func csAction(p op.Operation, name string) (string, error) {
	t, err := calls{addCall: "Add", updateCall: "Update", upsertCall: "Upsert", deleteCall: "Delete"}.name(p.Kind, CSharp, [2]string{"Replace", "Merge"})
	if err != nil {
		return "", err
	}
	etag := ""
	if conditional(p) {
		etag = ", new ETag(" + jsString(etagOf(p)) + ")"
	}
	return "new TableTransactionAction(TableTransactionActionType." + t + ", " + name + etag + ")", nil
}

// csMode is the TableUpdateMode of a merge or a replace.
func csMode(merge bool) string {
	if merge {
		return "Merge"
	}
	return "Replace"
}

// csWrite writes one of the six writes.
func csWrite(c *coder, o op.Operation) error {
	etag := "ETag.All"
	if conditional(o) {
		c.line("// Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied).")
		c.line("var etag = new ETag(" + jsString(etagOf(o)) + ");")
		etag = "etag"
	} else if anyVersion(o) {
		c.line("// ETag.All sends If-Match: *, whatever version is stored.")
	}
	kind, merge := callOf(o.Kind)
	if kind == deleteCall {
		pk, rk := keys(o)
		c.line("client.DeleteEntity(" + jsString(pk) + ", " + jsString(rk) + ", " + etag + ");")
		c.line(`Console.WriteLine("deleted");`)
		return nil
	}
	csEntity(c, "entity", entityOf(o), false)
	var call string
	switch kind {
	case addCall:
		call = "client.AddEntity(entity)"
	case updateCall:
		call = "client.UpdateEntity(entity, " + etag + ", TableUpdateMode." + csMode(merge) + ")"
	case upsertCall:
		call = "client.UpsertEntity(entity, TableUpdateMode." + csMode(merge) + ")"
	default:
		return noCode(o.Kind, CSharp)
	}
	c.line("var response = " + call + ";")
	c.line(`Console.WriteLine($"etag {response.Headers.ETag}");`)
	return nil
}

// csEntity declares a TableEntity with a collection initializer.
func csEntity(c *coder, name string, e *entity.Entity, keysOnly bool) {
	if keysOnly || len(e.Properties) == 0 {
		c.line("var " + name + " = new TableEntity(" + jsString(e.PartitionKey) + ", " + jsString(e.RowKey) + ");")
		return
	}
	c.open("var " + name + " = new TableEntity(" + jsString(e.PartitionKey) + ", " + jsString(e.RowKey) + ")")
	for _, p := range e.Properties {
		c.line("[" + jsString(p.Name) + "] = " + csValue(p.Value) + ",")
	}
	c.close("};")
}

// csValue writes a value as the .NET type Azure.Data.Tables maps to its
// Edm type.
func csValue(v edm.Value) string {
	switch v.Type() {
	case edm.String:
		return jsString(v.Str())
	case edm.Boolean:
		return strconv.FormatBool(v.Bool())
	case edm.Int32:
		return strconv.FormatInt(v.Int(), 10)
	case edm.Int64:
		if v.Int() == math.MinInt64 {
			return "long.MinValue"
		}
		return strconv.FormatInt(v.Int(), 10) + "L"
	case edm.Double:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			return "double.NaN"
		case math.IsInf(f, 1):
			return "double.PositiveInfinity"
		case math.IsInf(f, -1):
			return "double.NegativeInfinity"
		}
		return goFloat(f)
	case edm.Guid:
		return "Guid.Parse(" + jsString(v.Text()) + ")"
	case edm.Binary:
		parts := make([]string, len(v.Bytes()))
		for i, b := range v.Bytes() {
			parts[i] = fmt.Sprintf("0x%02x", b)
		}
		return "new byte[] { " + strings.Join(parts, ", ") + " }"
	case edm.DateTime:
		t := v.Ticks().Time().UTC()
		s := fmt.Sprintf("new DateTimeOffset(%d, %d, %d, %d, %d, %d, TimeSpan.Zero)", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second())
		if frac := t.Nanosecond() / 100; frac != 0 {
			s += fmt.Sprintf(".AddTicks(%d)", frac)
		}
		return s
	}
	return "null"
}

// csInterp is text placed inside a C# string literal.
func csInterp(s string) string {
	q := jsString(s)
	return q[1 : len(q)-1]
}

// csQueryArgs are the named arguments of Query: absent ones are left out,
// since a null filter would be ambiguous between the overloads.
func csQueryArgs(q op.Options, entities bool) string {
	var args []string
	if q.Filter != nil {
		args = append(args, "filter: "+jsString(*q.Filter))
	}
	if q.Top > 0 {
		args = append(args, "maxPerPage: "+strconv.Itoa(q.Top))
	}
	if q.Select != nil && entities {
		args = append(args, "select: new[] { "+strings.Trim(jsSelect(*q.Select), "[]")+" }")
	}
	return strings.Join(args, ", ")
}
