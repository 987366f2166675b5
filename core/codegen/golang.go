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

// The modules the Go program's install line names: the versions this
// repository's go.mod pins and its tests build the programs with.
const (
	aztablesModule = "github.com/Azure/azure-sdk-for-go/sdk/data/aztables@v1.4.1"
	azcoreModule   = "github.com/Azure/azure-sdk-for-go/sdk/azcore@v1.20.0"
)

// goProgram writes a main package for aztables v1.4.1, gofmt-ed.
func goProgram(o op.Operation, opt Options) (string, error) {
	src, err := goSource(o, opt)
	if err != nil {
		return "", err
	}
	return layoutGo(src), nil
}

// goSource writes the program one statement or element a line, unindented.
func goSource(o op.Operation, opt Options) (string, error) {
	var b strings.Builder
	imports := map[string]bool{"context": true, "fmt": true, "log": true, "github.com/Azure/azure-sdk-for-go/sdk/data/aztables": true}
	body, err := goBody(o, imports)
	if err != nil {
		return "", err
	}
	if opt.createsTable(o.Kind) {
		imports["errors"], imports["github.com/Azure/azure-sdk-for-go/sdk/azcore"] = true, true
		body = fmt.Sprintf("// The example's table, created first (kept when it exists).\n"+
			"if _, err := service.CreateTable(ctx, %q, nil); err != nil {\nvar re *azcore.ResponseError\n"+
			"if !errors.As(err, &re) || re.ErrorCode != string(aztables.TableAlreadyExists) {\nlog.Fatal(err)\n}\n}\n", batchTable(o)) + body
	}
	b.WriteString(opt.runsAgainst("// ") + "\n")
	get := "// go mod init example && go get " + aztablesModule
	if imports["github.com/Azure/azure-sdk-for-go/sdk/azcore"] {
		get += " " + azcoreModule
	}
	b.WriteString(get + "\n")
	b.WriteString("package main\n\nimport (\n")
	for _, p := range []string{"context", "encoding/json", "errors", "fmt", "log", "maps", "slices", "time"} {
		if imports[p] {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
	}
	b.WriteString("\n")
	for _, p := range []string{"github.com/Azure/azure-sdk-for-go/sdk/azcore", "github.com/Azure/azure-sdk-for-go/sdk/data/aztables"} {
		if imports[p] {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
	}
	b.WriteString(")\n\nfunc main() {\n")
	b.WriteString(opt.credentialNote("\t// ") + "\n")
	if opt.SASOnly {
		// aztables reads a SAS connection string's account from its name,
		// not its TableEndpoint: the service URL carries the SAS instead.
		fmt.Fprintf(&b, "\tconst serviceURL = %q\n", opt.endpoint()+"/?"+opt.SAS)
		b.WriteString("\tservice, err := aztables.NewServiceClientWithNoCredential(serviceURL, nil)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n")
	} else {
		fmt.Fprintf(&b, "\tconst connectionString = %q\n", opt.connectionString())
		b.WriteString("\tservice, err := aztables.NewServiceClientFromConnectionString(connectionString, nil)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n")
	}
	b.WriteString("\tctx := context.Background()\n")
	b.WriteString(body)
	b.WriteString("}\n")
	if imports["print"] {
		b.WriteString(goPrintFunc)
	}
	return b.String(), nil
}

// goPrintFunc prints an entity read back: keys, then each property with the
// Go type the SDK gave it.
const goPrintFunc = `
// printEntity prints an entity as the SDK decoded it.
func printEntity(raw []byte) {
	var e aztables.EDMEntity
	if err := json.Unmarshal(raw, &e); err != nil {
		log.Fatal(err)
	}
	fmt.Println("entity", e.PartitionKey, e.RowKey)
	for _, name := range slices.Sorted(maps.Keys(e.Properties)) {
		fmt.Printf("  %s = %v (%T)\n", name, e.Properties[name], e.Properties[name])
	}
}
`

// goBody writes main's statements: the write its row names, or the kind's
// own statements.
func goBody(o op.Operation, imports map[string]bool) (string, error) {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	check := "if err != nil {\nlog.Fatal(err)\n}\n"
	needPrint := func() {
		imports["print"], imports["encoding/json"], imports["maps"], imports["slices"] = true, true, true, true
	}
	if o.Kind.Spec().Writes {
		w("client := service.NewClient(%q)\n", o.Table)
		err := goWrite(&b, o, imports)
		return b.String(), err
	}
	switch o.Kind {
	case op.CreateTable:
		w("if _, err := service.CreateTable(ctx, %q, nil); err != nil {\nlog.Fatal(err)\n}\n", o.Table)
		w("fmt.Println(\"created table\", %q)\n", o.Table)
	case op.DeleteTable:
		w("if _, err := service.DeleteTable(ctx, %q, nil); err != nil {\nlog.Fatal(err)\n}\n", o.Table)
		w("fmt.Println(\"deleted table\", %q)\n", o.Table)
	case op.GetTable:
		w("// The SDK has no call for one table: list the tables with a filter on the name.\n")
		w("filter := %q\n", "TableName eq "+odataString(o.Table))
		w("pager := service.NewListTablesPager(&aztables.ListTablesOptions{Filter: &filter})\nfound := false\n")
		w("for pager.More() {\npage, err := pager.NextPage(ctx)\n%sfor _, t := range page.Tables {\nfmt.Println(\"table\", *t.Name)\nfound = true\n}\n}\n", check)
		w("if !found {\nlog.Fatalf(\"table %%s not found\", %q)\n}\n", o.Table)
	case op.ListTables:
		w("options := &aztables.ListTablesOptions{}\n")
		goQueryOptions(&b, o.Query, false)
		if o.Query.NextTableName != "" {
			w("next := %q // continue from a previous page\noptions.NextTableName = &next\n", o.Query.NextTableName)
		}
		w("// The pager follows the continuation token from page to page.\n")
		w("pager := service.NewListTablesPager(options)\n")
		w("for n := 1; pager.More(); n++ {\npage, err := pager.NextPage(ctx)\n%sfmt.Printf(\"page %%d: %%d tables\\n\", n, len(page.Tables))\n", check)
		w("for _, t := range page.Tables {\nfmt.Println(\"table\", *t.Name)\n}\n}\n")
	case op.Query:
		w("client := service.NewClient(%q)\n", o.Table)
		w("options := &aztables.ListEntitiesOptions{}\n")
		goQueryOptions(&b, o.Query, true)
		if o.Query.NextPartitionKey != "" {
			w("// Continue from a previous page.\nnextPK, nextRK := %q, %q\noptions.NextPartitionKey, options.NextRowKey = &nextPK, &nextRK\n", o.Query.NextPartitionKey, o.Query.NextRowKey)
		}
		w("// The pager follows the continuation tokens from page to page.\n")
		w("pager := client.NewListEntitiesPager(options)\n")
		w("for n := 1; pager.More(); n++ {\npage, err := pager.NextPage(ctx)\n%sfmt.Printf(\"page %%d: %%d entities\\n\", n, len(page.Entities))\n", check)
		w("for _, raw := range page.Entities {\nprintEntity(raw)\n}\n}\n")
		needPrint()
	case op.Get:
		w("client := service.NewClient(%q)\n", o.Table)
		if o.Query.Select != nil {
			w("// aztables' GetEntity has no $select: it reads every property.\n")
		}
		w("resp, err := client.GetEntity(ctx, %q, %q, nil)\n%s", o.PartitionKey, o.RowKey, check)
		w("fmt.Println(\"etag\", resp.ETag)\nprintEntity(resp.Value)\n")
		needPrint()
	case op.Batch:
		w("client := service.NewClient(%q)\n", batchTable(o))
		w("var actions []aztables.TransactionAction\n")
		for i, p := range o.Operations {
			w("\n// Operation %d: %s.\n{\n", i, p.Kind)
			action, err := goAction(p.Kind)
			if err != nil {
				return "", err
			}
			goEntityJSON(&b, entityOf(p), keysOnly(p.Kind), imports)
			w("action := aztables.TransactionAction{ActionType: aztables.TransactionType%s, Entity: body}\n", action)
			if conditional(p) {
				imports["github.com/Azure/azure-sdk-for-go/sdk/azcore"] = true
				w("etag := azcore.ETag(%q)\naction.IfMatch = &etag\n", etagOf(p))
			}
			w("actions = append(actions, action)\n}\n")
		}
		w("\n// All or nothing: one failing operation leaves the table unchanged.\n")
		w("if _, err := client.SubmitTransaction(ctx, actions, nil); err != nil {\nlog.Fatal(err)\n}\n")
		w("fmt.Printf(\"transaction of %%d operations committed\\n\", len(actions))\n")
	default:
		return "", noCode(o.Kind, Go)
	}
	return b.String(), nil
}

// goAction is a write's aztables.TransactionType name.
func goAction(k op.Kind) (string, error) {
	return calls{addCall: "Add", updateCall: "Update", upsertCall: "Insert", deleteCall: "Delete"}.name(k, Go, [2]string{"Replace", "Merge"})
}

// goQueryOptions sets $filter, $select and $top on an options value.
func goQueryOptions(b *strings.Builder, q op.Options, entities bool) {
	if q.Filter != nil {
		fmt.Fprintf(b, "filter := %q\noptions.Filter = &filter\n", *q.Filter)
	}
	if q.Select != nil && entities {
		fmt.Fprintf(b, "sel := %q\noptions.Select = &sel\n", *q.Select)
	}
	if q.Top > 0 {
		fmt.Fprintf(b, "top := int32(%d) // per page\noptions.Top = &top\n", q.Top)
	}
}

// goWrite writes one of the six writes.
func goWrite(b *strings.Builder, o op.Operation, imports map[string]bool) error {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	etag := func() string {
		if !conditional(o) {
			return ""
		}
		imports["github.com/Azure/azure-sdk-for-go/sdk/azcore"] = true
		w("// Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied).\netag := azcore.ETag(%q)\n", etagOf(o))
		return ", IfMatch: &etag"
	}
	c, merge := callOf(o.Kind)
	mode := "Replace"
	if merge {
		mode = "Merge"
	}
	if c == deleteCall {
		pk, rk := keys(o)
		cond := etag()
		if cond == "" {
			w("// No ETag: the SDK sends If-Match: *, deleting whatever version is stored.\n")
			w("if _, err := client.DeleteEntity(ctx, %q, %q, nil); err != nil {\nlog.Fatal(err)\n}\n", pk, rk)
		} else {
			w("if _, err := client.DeleteEntity(ctx, %q, %q, &aztables.DeleteEntityOptions{%s}); err != nil {\nlog.Fatal(err)\n}\n", pk, rk, cond[2:])
		}
		w("fmt.Println(\"deleted\")\n")
		return nil
	}
	goEntityJSON(b, entityOf(o), false, imports)
	switch c {
	case addCall:
		w("resp, err := client.AddEntity(ctx, body, nil)\n")
	case updateCall:
		cond := etag()
		if cond == "" {
			w("// No ETag: the SDK sends If-Match: *, overwriting whatever version is stored.\n")
		}
		w("resp, err := client.UpdateEntity(ctx, body, &aztables.UpdateEntityOptions{UpdateMode: aztables.UpdateMode%s%s})\n", mode, cond)
	case upsertCall:
		w("resp, err := client.UpsertEntity(ctx, body, &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateMode%s})\n", mode)
	default:
		return noCode(o.Kind, Go)
	}
	w("if err != nil {\nlog.Fatal(err)\n}\nfmt.Println(\"etag\", resp.ETag)\n")
	return nil
}

// goEntityJSON declares body, the entity marshalled as aztables sends it.
func goEntityJSON(b *strings.Builder, e *entity.Entity, keysOnly bool, imports map[string]bool) {
	imports["encoding/json"] = true
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	w("entity := aztables.EDMEntity{\nEntity: aztables.Entity{PartitionKey: %q, RowKey: %q},\n", e.PartitionKey, e.RowKey)
	if !keysOnly && len(e.Properties) > 0 {
		w("Properties: map[string]any{\n")
		for _, p := range e.Properties {
			goProperty(b, p, imports)
		}
		w("},\n")
	}
	w("}\nbody, err := json.Marshal(entity)\nif err != nil {\nlog.Fatal(err)\n}\n")
}

// goProperty writes one property as the Go value aztables maps to its type.
func goProperty(b *strings.Builder, p entity.Property, imports map[string]bool) {
	v, name := p.Value, strconv.Quote(p.Name)
	switch v.Type() {
	case edm.String:
		fmt.Fprintf(b, "%s: %q,\n", name, v.Str())
	case edm.Boolean:
		fmt.Fprintf(b, "%s: %t,\n", name, v.Bool())
	case edm.Int32:
		fmt.Fprintf(b, "%s: int32(%d),\n", name, v.Int())
	case edm.Int64:
		fmt.Fprintf(b, "%s: aztables.EDMInt64(%d),\n", name, v.Int())
	case edm.Double:
		f := v.Float()
		if s, special := edm.DoubleSpecial(f); special {
			fmt.Fprintf(b, "%s: %q, // encoding/json cannot write %s: send the string the service reads\n", name, s, s)
			fmt.Fprintf(b, "%q: \"Edm.Double\",\n", p.Name+"@odata.type")
			return
		}
		fmt.Fprintf(b, "%s: %s,\n", name, goFloat(f))
		if integralDouble(v) {
			fmt.Fprintf(b, "%q: \"Edm.Double\", // encoding/json writes %s as %d, which would be stored as an integer\n", p.Name+"@odata.type", goFloat(f), int64(f))
		}
	case edm.Guid:
		fmt.Fprintf(b, "%s: aztables.EDMGUID(%q),\n", name, v.Text())
	case edm.Binary:
		fmt.Fprintf(b, "%s: aztables.EDMBinary(%s),\n", name, goBytes(v.Bytes()))
	case edm.DateTime:
		imports["time"] = true
		t := v.Ticks().Time().UTC()
		fmt.Fprintf(b, "%s: aztables.EDMDateTime(time.Date(%d, %d, %d, %d, %d, %d, %d, time.UTC)),\n", name,
			t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond())
	}
}

// goFloat writes a float64 literal that reads back as the same value.
func goFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") && !math.IsInf(f, 0) {
		s += ".0"
	}
	return s
}

// goBytes writes a []byte literal.
func goBytes(p []byte) string {
	var b strings.Builder
	b.WriteString("[]byte{")
	for i, c := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "0x%02x", c)
	}
	b.WriteString("}")
	return b.String()
}

// odataString quotes a string as an OData literal.
func odataString(s string) string { return edm.StringValue(s).Literal() }
