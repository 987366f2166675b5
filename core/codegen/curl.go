package codegen

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
)

// curlCommands writes a POSIX shell script of curl commands: the account SAS
// in a variable, then one request (one page for a query).
func curlCommands(o op.Operation, opt Options) (string, error) {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	base := opt.endpoint()
	w("%s\n", opt.runsAgainst("# "))
	if opt.SAS != "" {
		w("%s\n", opt.sasNote())
		w("SAS=%s\n", shellQuote(opt.SAS))
	} else {
		w("# Replace with an account SAS (sv, ss=t, srt=sco, sp, se, sig) for your account.\n")
		w("SAS='<account SAS>'\n")
	}
	w("BASE=%s\n", shellQuote(base))
	headers := []string{"Accept: application/json;odata=minimalmetadata", "x-ms-version: 2019-02-02", "DataServiceVersion: 3.0"}
	cmd := func(method, path string, extra []string, body string, params [][2]string, showHeaders bool) {
		w("curl -sS --fail-with-body")
		if showHeaders {
			w(" -D -")
		}
		if len(params) > 0 {
			w(" -G")
		}
		if method != "GET" {
			w(" -X %s", method)
		}
		w(" \"$BASE\"%s'?'\"$SAS\"", shellQuote(path))
		for _, h := range append(append([]string{}, headers...), extra...) {
			w(" \\\n  -H %s", shellQuote(h))
		}
		for _, p := range params {
			w(" \\\n  --data-urlencode %s", shellQuote(p[0]+"="+p[1]))
		}
		if body != "" {
			w(" \\\n  --data-binary %s", shellQuote(body))
		}
		w("\n")
	}
	jsonType := []string{"Content-Type: application/json"}
	if opt.createsTable(o.Kind) {
		// Not --fail-with-body: 409 TableAlreadyExists is an answer to keep.
		w("# The example's table, created first: 204, or 409 TableAlreadyExists when it exists.\n")
		w("curl -sS -o /dev/null -w 'create table: %%{http_code}\\n' -X POST \"$BASE\"'/Tables?'\"$SAS\"")
		for _, h := range append(append([]string{}, headers...), append(jsonType, "Prefer: return-no-content")...) {
			w(" \\\n  -H %s", shellQuote(h))
		}
		w(" \\\n  --data-binary %s\n", shellQuote(`{"TableName":`+jsString(batchTable(o))+`}`))
	}
	if spec := o.Kind.Spec(); spec.Writes {
		// A write is its row's verb and resource; an update shows the
		// answer's headers, where its ETag is.
		method, h := curlWrite(o)
		body := ""
		if !keysOnly(o.Kind) {
			body = string(curlEntity(entityOf(o)))
			h = append(h, jsonType...)
		}
		cmd(method, writePath(o), h, body, nil, spec.Answer == op.EntityWritten)
		return b.String(), nil
	}
	switch o.Kind {
	case op.CreateTable:
		cmd("POST", "/Tables", jsonType, `{"TableName":`+jsString(o.Table)+`}`, nil, false)
	case op.DeleteTable:
		cmd("DELETE", "/"+url.PathEscape(odata.TablePath(o.Table)), nil, "", nil, false)
	case op.GetTable:
		cmd("GET", "/"+url.PathEscape(odata.TablePath(o.Table)), nil, "", nil, false)
	case op.ListTables:
		w("# One page: the next one starts at the x-ms-continuation-NextTableName header (add --data-urlencode NextTableName=...).\n")
		cmd("GET", "/Tables", nil, "", curlParams(o.Query, false), true)
	case op.Query:
		w("# One page: the next one starts at the x-ms-continuation-NextPartitionKey and -NextRowKey headers.\n")
		cmd("GET", "/"+url.PathEscape(o.Table)+"()", nil, "", curlParams(o.Query, true), true)
	case op.Get:
		var params [][2]string
		if o.Query.Select != nil {
			params = append(params, [2]string{"$select", *o.Query.Select})
		}
		cmd("GET", op.EntityPath(o.Table, o.PartitionKey, o.RowKey), nil, "", params, false)
	case op.Batch:
		if err := curlBatch(&b, o, base); err != nil {
			return "", err
		}
		w("curl -sS --fail-with-body -X POST \"$BASE\"'/$batch?'\"$SAS\"")
		for _, h := range []string{"Content-Type: multipart/mixed; boundary=batch_tableplay", "x-ms-version: 2019-02-02", "DataServiceVersion: 3.0"} {
			w(" \\\n  -H %s", shellQuote(h))
		}
		w(" \\\n  --data-binary @-\n")
	default:
		return "", noCode(o.Kind, Curl)
	}
	return b.String(), nil
}

// curlWrite is the verb (its row's) and If-Match of a write: the service
// tells an update from an upsert by the presence of If-Match.
func curlWrite(o op.Operation) (string, []string) {
	method := o.Kind.Spec().Method.String()
	switch {
	case conditional(o):
		return method, []string{"If-Match: " + etagOf(o)}
	case anyVersion(o):
		return method, []string{"If-Match: *"}
	}
	return method, nil
}

// writePath is the resource a write is sent to: the entity its keys name,
// or its table.
func writePath(o op.Operation) string {
	if o.Kind.Addressed() {
		pk, rk := keys(o)
		return op.EntityPath(o.Table, pk, rk)
	}
	return "/" + url.PathEscape(o.Table)
}

// curlBatch writes the multipart body with printf, one line per argument, so
// that every line ends in CRLF as the format requires. Each part is its
// row's verb and resource.
func curlBatch(b *strings.Builder, o op.Operation, base string) error {
	lines := []string{"--batch_tableplay", "Content-Type: multipart/mixed; boundary=changeset_tableplay", ""}
	for _, p := range o.Operations {
		lines = append(lines, "--changeset_tableplay", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "")
		if _, writes := p.Kind.Write(); !writes {
			return noCode(p.Kind, Curl)
		}
		method, h := curlWrite(p)
		lines = append(lines, method+" "+base+writePath(p)+" HTTP/1.1", "Accept: application/json;odata=minimalmetadata")
		lines = append(lines, h...)
		if keysOnly(p.Kind) {
			lines = append(lines, "")
			continue
		}
		body := curlEntity(entityOf(p))
		lines = append(lines, "Content-Type: application/json", "Content-Length: "+strconv.Itoa(len(body)), "", string(body))
	}
	lines = append(lines, "--changeset_tableplay--", "--batch_tableplay--")
	fmt.Fprintf(b, "# A $batch is multipart with CRLF line ends: printf writes one line per argument.\nprintf '%%s\\r\\n'")
	for _, l := range lines {
		fmt.Fprintf(b, " \\\n  %s", shellQuote(l))
	}
	b.WriteString(" |\n")
	return nil
}

// curlParams are the query options as curl --data-urlencode pairs.
func curlParams(q op.Options, entities bool) [][2]string {
	var p [][2]string
	if q.Filter != nil {
		p = append(p, [2]string{"$filter", *q.Filter})
	}
	if q.Select != nil && entities {
		p = append(p, [2]string{"$select", *q.Select})
	}
	if q.Top > 0 {
		p = append(p, [2]string{"$top", strconv.Itoa(q.Top)})
	}
	if q.NextPartitionKey != "" {
		p = append(p, [2]string{"NextPartitionKey", q.NextPartitionKey}, [2]string{"NextRowKey", q.NextRowKey})
	}
	if q.NextTableName != "" {
		p = append(p, [2]string{"NextTableName", q.NextTableName})
	}
	return p
}

// curlEntity is the JSON body of an entity with every type the service
// cannot infer annotated (Double always, so that 20.0 stays a Double).
func curlEntity(e *entity.Entity) []byte {
	b := []byte(`{"PartitionKey":`)
	b = edm.AppendJSONString(b, e.PartitionKey)
	b = append(b, `,"RowKey":`...)
	b = edm.AppendJSONString(b, e.RowKey)
	for _, p := range e.Properties {
		b = append(b, ',')
		b = edm.AppendJSONString(b, p.Name)
		b = append(b, ':')
		b = p.Value.AppendJSON(b)
		if p.Value.NeedsAnnotation() || p.Value.Type() == edm.Double {
			b = append(b, ',')
			b = edm.AppendJSONString(b, p.Name+"@odata.type")
			b = append(b, ':')
			b = edm.AppendJSONString(b, p.Value.Type().String())
		}
	}
	return append(b, '}')
}

// shellQuote quotes a word for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
