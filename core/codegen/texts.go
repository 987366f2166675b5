package codegen

import (
	"strings"

	"github.com/tableplay/tableplay/core/locale"
)

// Generated programs keep their code in English; their comments and the
// notes beside them follow the reader's locale. The generators write the
// English; For puts each known comment and note in the locale's words,
// matched against these tables of catalogue id and English ({name} stands
// for a value the program fills in). The catalogue test holds English's
// rules.json to the same English.

// commentTexts are the comments the generators write, each on a line of
// its own.
func commentTexts() [][2]string {
	return [][2]string{
		{"code.comment.emulator", "Runs against the local emulator: `tableplay serve` (or Azurite) on 127.0.0.1:10002."},
		{"code.comment.runsAgainst", "Runs against {endpoint}."},
		{"code.comment.sasGrants", "The SAS you connected with: it grants what it grants until it expires."},
		{"code.comment.keyPrivate", "The account key you connected with: keep this program private."},
		{"code.comment.wellKnown", "The emulator's well-known account: replace with your own connection string."},
		{"code.comment.sas", "The SAS you connected with."},
		{"code.comment.sasSignedKey", "An account SAS the engine signed with the account key you connected with."},
		{"code.comment.sasSignedWellKnown", "An account SAS the engine signed with the emulator's well-known key."},
		{"code.comment.sasReplace", "Replace with an account SAS (sv, ss=t, srt=sco, sp, se, sig) for your account."},
		{"code.comment.tableFirst", "The example's table, created first (kept when it exists)."},
		{"code.comment.tableFirstJS", "The example's table, created first (the SDK treats 409 TableAlreadyExists as success)."},
		{"code.comment.tableFirstCurl", "The example's table, created first: 204, or 409 TableAlreadyExists when it exists."},
		{"code.comment.oneTableFilter", "The SDK has no call for one table: list the tables with a filter on the name."},
		{"code.comment.oneTableQuery", "The SDK has no call for one table: query the tables by name."},
		{"code.comment.pagerToken", "The pager follows the continuation token from page to page."},
		{"code.comment.pagerTokens", "The pager follows the continuation tokens from page to page."},
		{"code.comment.continue", "Continue from a previous page."},
		{"code.comment.noSelect", "aztables' GetEntity has no $select: it reads every property."},
		{"code.comment.operation", "Operation {n}: {kind}."},
		{"code.comment.allOrNothing", "All or nothing: one failing operation leaves the table unchanged."},
		{"code.comment.ifMatch", "Only if the entity still has this ETag (else 412 UpdateConditionNotSatisfied)."},
		{"code.comment.noETagDelete", "No ETag: the SDK sends If-Match: *, deleting whatever version is stored."},
		{"code.comment.noETagOverwrite", "No ETag: the SDK sends If-Match: *, overwriting whatever version is stored."},
		{"code.comment.noETag", "No ETag: the SDK sends If-Match: *, whatever version is stored."},
		{"code.comment.etagAll", "ETag.All sends If-Match: *, whatever version is stored."},
		{"code.comment.createTableSuccess", "Note: the SDK treats TableAlreadyExists as success."},
		{"code.comment.deleteTableSuccess", "Note: the SDK treats a missing table (404) as success."},
		{"code.comment.sdkToken", "Each page ends where the service's continuation token says; the SDK follows it."},
		{"code.comment.sdkTokens", "Each page ends where the service's continuation tokens say; the SDK follows them."},
		{"code.comment.pyToken", "Each page ends where the service's continuation token says; the pager follows it."},
		{"code.comment.pyTokens", "Each page ends where the service's continuation tokens say; the pager follows them."},
		{"code.comment.csToken", "Each page ends where the service's continuation token says; AsPages follows it."},
		{"code.comment.csTokens", "Each page ends where the service's continuation tokens say; AsPages follows them."},
		{"code.comment.errorDetails", "The service names its error in the body: the SDK keeps it in err.details."},
		{"code.comment.errorCodeNone", "The service names its error in the body; the SDK often leaves error_code None."},
		{"code.comment.insecure", "allowInsecureConnection: the emulator speaks http."},
		{"code.comment.prints", "Prints an entity as the SDK decoded it."},
		{"code.comment.printEntity", "printEntity prints an entity as the SDK decoded it."},
		{"code.comment.batchLines", "A $batch is multipart with CRLF line ends: printf writes one line per argument."},
		{"code.comment.onePageTables", "One page: the next one starts at the x-ms-continuation-NextTableName header (add --data-urlencode NextTableName=...)."},
		{"code.comment.onePage", "One page: the next one starts at the x-ms-continuation-NextPartitionKey and -NextRowKey headers."},
	}
}

// MessageIDs lists the catalogue ids this package uses.
func MessageIDs() []string {
	var out []string
	for _, t := range commentTexts() {
		out = append(out, t[0])
	}
	for _, n := range noteTexts() {
		out = append(out, n.id)
	}
	return out
}

// English is the English of the comments (templates) and notes (filled)
// this package writes, by catalogue id, for the catalogue test; NoteArgs
// are the values a note's message is filled with.
func English() (comments, notes map[string]string, noteArgs map[string][]any) {
	comments, notes, noteArgs = map[string]string{}, map[string]string{}, map[string][]any{}
	for _, t := range commentTexts() {
		comments[t[0]] = t[1]
	}
	for _, n := range noteTexts() {
		notes[n.id], noteArgs[n.id] = n.english, n.args
	}
	return comments, notes, noteArgs
}

// match reads text as template (English with {name} placeholders) and
// returns the placeholders' values as names and values in turn.
func match(template, text string) ([]any, bool) {
	var args []any
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			return args, template == text
		}
		if !strings.HasPrefix(text, template[:open]) {
			return nil, false
		}
		text = text[open:]
		close := strings.IndexByte(template[open:], '}')
		name := template[open+1 : open+close]
		template = template[open+close+1:]
		next := strings.IndexByte(template, '{')
		lit := template
		if next >= 0 {
			lit = template[:next]
		}
		var end int
		switch {
		case lit == "":
			end = len(text)
		case next < 0:
			if !strings.HasSuffix(text, lit) {
				return nil, false
			}
			end = len(text) - len(lit)
		default:
			if end = strings.Index(text, lit); end < 0 {
				return nil, false
			}
		}
		args = append(args, name, text[:end])
		text = text[end:]
	}
}

// localText is an English comment or note in the locale's words, or as it
// is when the table does not know it.
func localText(loc *locale.Locale, table [][2]string, english string) string {
	for _, t := range table {
		if args, ok := match(t[1], english); ok {
			return loc.T(t[0], args...)
		}
	}
	return english
}

// localComments puts each whole-line comment of a program in the locale.
func localComments(loc *locale.Locale, code, language string) string {
	if loc == nil {
		return code
	}
	marker := "// "
	if language == Python || language == Curl {
		marker = "# "
	}
	table := commentTexts()
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		body := strings.TrimLeft(l, " \t")
		text, ok := strings.CutPrefix(body, marker)
		if !ok {
			continue
		}
		lines[i] = l[:len(l)-len(body)] + marker + localText(loc, table, text)
	}
	return strings.Join(lines, "\n")
}

// localNotes are a snippet's notes in the locale.
func localNotes(loc *locale.Locale, notes []string) []string {
	if loc == nil {
		return notes
	}
	table := noteTexts()
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n
		for _, t := range table {
			if t.english == n {
				out[i] = loc.T(t.id, t.args...)
				break
			}
		}
	}
	return out
}

// noteText is one note beside the programs: its catalogue id, its English
// and the code it quotes that holds braces (the message format would read
// them as placeholders), filled in as {name}.
type noteText struct {
	id, english string
	args        []any
}

// noteTexts are the notes beside the programs, by language.
func noteTexts() []noteText {
	return []noteText{
		{"code.note.go.1", "Int64 is aztables.EDMInt64: exact over the whole range. A plain Go integer is sent as a bare JSON number, which the service stores as Int32 when it fits and otherwise as a Double (losing digits beyond 2^53).", nil},
		{"code.note.go.2", "encoding/json writes an integral float64 such as 20.0 as 20, which the service would store as an Int32: the snippet adds the \"@odata.type\": \"Edm.Double\" annotation to keep it a Double. Read back, aztables gives that 20.0 as an int32.", nil},
		{"code.note.go.3", "DateTime is aztables.EDMDateTime (a time.Time): nanosecond precision, so the service's 100 ns ticks survive both ways.", nil},
		{"code.note.go.4", "Binary is aztables.EDMBinary ([]byte), sent as base64.", nil},
		{"code.note.go.5", "Guid is aztables.EDMGUID (a string); a plain string would be stored as Edm.String.", nil},
		{"code.note.go.6", "A Go map has no order: the properties are sent (and stored) in the order encoding/json writes them, sorted by name.", nil},
		{"code.note.go.7", "Reading, aztables.EDMEntity gives Int32 as int32 and Double as float64, but a whole Double such as 20.0 comes back as an int32 (told apart from an Int32 by nothing); Int64 as EDMInt64, DateTime as EDMDateTime, Guid as EDMGUID, Binary as EDMBinary.", nil},
		{"code.note.go.8", "aztables' GetEntity has no $select: it reads every property (a query with a RowKey filter can select).", nil},
		{"code.note.javaScript.1", "Int64 is written as { value: \"…\", type: \"Int64\" }: a JavaScript number holds integers exactly only up to 2^53, so 9007199254740993 would become 9007199254740992.", []any{"int64Form", "{ value: \"…\", type: \"Int64\" }"}},
		{"code.note.javaScript.2", "This entity has an Int64 beyond 2^53: only the string form keeps it.", nil},
		{"code.note.javaScript.3", "DateTime is written as { value: \"…\", type: \"DateTime\" } to keep all seven fractional digits; a Date holds milliseconds only.", []any{"dateTimeForm", "{ value: \"…\", type: \"DateTime\" }"}},
		{"code.note.javaScript.4", "This entity has a DateTime finer than a millisecond: read back, it becomes a Date and the digits below the millisecond are lost (unless the client is created with disableTypeConversion).", nil},
		{"code.note.javaScript.5", "A whole Double such as 20.0 is the JavaScript number 20 and would be sent (and stored) as an Int32: the snippet writes { value: \"20\", type: \"Double\" }. Read back it is the number 20, indistinguishable from an Int32.", []any{"doubleForm", "{ value: \"20\", type: \"Double\" }"}},
		{"code.note.javaScript.6", "Binary is a Uint8Array (here a Buffer), sent as base64.", nil},
		{"code.note.javaScript.7", "Guid is { value: \"…\", type: \"Guid\" }; a plain string would be stored as Edm.String.", []any{"guidForm", "{ value: \"…\", type: \"Guid\" }"}},
		{"code.note.javaScript.8", "Reading (@azure/data-tables 13.3), Int64 comes back as a BigInt, DateTime as a Date (milliseconds), Double and Int32 as numbers, Guid as { value, type: \"Guid\" } and Binary as a Uint8Array.", []any{"guidForm", "{ value, type: \"Guid\" }"}},
		{"code.note.javaScript.9", "createTable treats TableAlreadyExists as success; deleteTable treats a missing table the same way.", nil},
		{"code.note.javaScript.10", "deleteTable treats a missing table (404) as success.", nil},
		{"code.note.python.1", "Int64 is EntityProperty(n, EdmType.INT64): exact. In azure-data-tables 12.4 a plain int beyond the Int32 range is refused with a TypeError.", nil},
		{"code.note.python.2", "DateTime: a Python datetime holds microseconds, so the service's 100 ns digit cannot be written from one; the SDK reads DateTimes back as TablesEntityDatetime, whose tables_service_value keeps the service's text.", nil},
		{"code.note.python.3", "This entity has a DateTime with a 100 ns digit: the snippet sends it as EntityProperty(\"…\", EdmType.DATETIME), text the SDK passes through unchanged.", nil},
		{"code.note.python.4", "Double is a float, always annotated Edm.Double, so 20.0 stays a Double.", nil},
		{"code.note.python.5", "Binary is bytes.", nil},
		{"code.note.python.6", "Guid is uuid.UUID; a plain str would be stored as Edm.String.", nil},
		{"code.note.python.7", "Reading, Int32 is an int, Int64 an EntityProperty(int, EdmType.INT64), Double a float, Guid a UUID, Binary bytes and DateTime a TablesEntityDatetime (microseconds).", nil},
		{"code.note.cSharp.1", "Not compiled here (no .NET toolchain is available): this C# is checked against golden files written by hand from Azure.Data.Tables' documented API.", nil},
		{"code.note.cSharp.2", "Int64 is long: exact.", nil},
		{"code.note.cSharp.3", "DateTime is DateTimeOffset (or DateTime in UTC): 100 ns ticks, exact.", nil},
		{"code.note.cSharp.4", "Double is double; an integral 20.0 stays a Double.", nil},
		{"code.note.cSharp.5", "Binary is byte[] (or BinaryData).", nil},
		{"code.note.cSharp.6", "Guid is System.Guid.", nil},
		{"code.note.cSharp.7", "Reading into TableEntity, each value has its .NET type: int, long, double, bool, string, DateTimeOffset, Guid, byte[].", nil},
		{"code.note.curl.1", "The SAS in the script was signed by the engine with the emulator's well-known key; it is valid for 24 hours from when the code was generated.", nil},
		{"code.note.curl.2", "The JSON carries each value as the service reads it: Int64, DateTime, Guid and Binary as annotated strings, Double annotated so that 20.0 stays a Double.", nil},
		{"code.note.curl.3", "The response is minimal metadata: Int64, DateTime, Guid and Binary carry an @odata.type annotation; a Double keeps its decimal point (20.0), an Int32 has none.", nil},
		{"code.note.curl.4", "curl reads one page: repeat with the continuation headers (-D - shows them) for the next.", nil},
	}
}
