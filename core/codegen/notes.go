package codegen

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/op"
)

// typesIn reports which Edm types the entities an operation sends hold, and
// whether one of its DateTimes has digits below a millisecond (JavaScript)
// or below a microsecond (Python), and whether a Double is integral.
type typesIn struct {
	has               map[edm.Type]bool
	subMilli, subMicr bool
	integral, big     bool
}

func scan(o op.Operation) typesIn {
	t := typesIn{has: map[edm.Type]bool{}}
	ops := append([]op.Operation{o}, o.Operations...)
	for _, p := range ops {
		if p.Entity == nil {
			continue
		}
		for _, prop := range p.Entity.Properties {
			v := prop.Value
			t.has[v.Type()] = true
			switch v.Type() {
			case edm.DateTime:
				ns := v.Ticks().Time().Nanosecond()
				t.subMilli = t.subMilli || ns%1e6 != 0
				t.subMicr = t.subMicr || ns%1e3 != 0
			case edm.Double:
				t.integral = t.integral || integralDouble(v)
			case edm.Int64:
				n := v.Int()
				t.big = t.big || n > 1<<53 || n < -(1<<53)
			}
		}
	}
	return t
}

// readsEntities reports whether the operation returns entities.
func readsEntities(o op.Operation) bool {
	a := o.Kind.Answer()
	return a == op.EntityRead || a == op.EntityPage
}

// paged reports whether the operation reads a page (of tables or
// entities) that may continue.
func paged(o op.Operation) bool {
	a := o.Kind.Answer()
	return a == op.TablePage || a == op.EntityPage
}

// notesFor lists the type-mapping caveats of a language for an operation:
// those of the types its entities hold, and for reads how each type comes
// back.
func notesFor(o op.Operation, language string) []string {
	t := scan(o)
	reads := readsEntities(o)
	n := []string{}
	add := func(cond bool, s string) {
		if cond {
			n = append(n, s)
		}
	}
	switch language {
	case Go:
		add(t.has[edm.Int64], "Int64 is aztables.EDMInt64: exact over the whole range. A plain Go integer is sent as a bare JSON number, which the service stores as Int32 when it fits and otherwise as a Double (losing digits beyond 2^53).")
		add(t.integral, "encoding/json writes an integral float64 such as 20.0 as 20, which the service would store as an Int32: the snippet adds the \"@odata.type\": \"Edm.Double\" annotation to keep it a Double. Read back, aztables gives that 20.0 as an int32.")
		add(t.has[edm.DateTime], "DateTime is aztables.EDMDateTime (a time.Time): nanosecond precision, so the service's 100 ns ticks survive both ways.")
		add(t.has[edm.Binary], "Binary is aztables.EDMBinary ([]byte), sent as base64.")
		add(t.has[edm.Guid], "Guid is aztables.EDMGUID (a string); a plain string would be stored as Edm.String.")
		add(len(t.has) > 0, "A Go map has no order: the properties are sent (and stored) in the order encoding/json writes them, sorted by name.")
		add(reads, "Reading, aztables.EDMEntity gives Int32 as int32 and Double as float64, but a whole Double such as 20.0 comes back as an int32 (told apart from an Int32 by nothing); Int64 as EDMInt64, DateTime as EDMDateTime, Guid as EDMGUID, Binary as EDMBinary.")
		add(o.Kind == op.Get && o.Query.Select != nil, "aztables' GetEntity has no $select: it reads every property (a query with a RowKey filter can select).")
	case JavaScript:
		add(t.has[edm.Int64], "Int64 is written as { value: \"…\", type: \"Int64\" }: a JavaScript number holds integers exactly only up to 2^53, so 9007199254740993 would become 9007199254740992.")
		add(t.big, "This entity has an Int64 beyond 2^53: only the string form keeps it.")
		add(t.has[edm.DateTime], "DateTime is written as { value: \"…\", type: \"DateTime\" } to keep all seven fractional digits; a Date holds milliseconds only.")
		add(t.subMilli, "This entity has a DateTime finer than a millisecond: read back, it becomes a Date and the digits below the millisecond are lost (unless the client is created with disableTypeConversion).")
		add(t.integral, "A whole Double such as 20.0 is the JavaScript number 20 and would be sent (and stored) as an Int32: the snippet writes { value: \"20\", type: \"Double\" }. Read back it is the number 20, indistinguishable from an Int32.")
		add(t.has[edm.Binary], "Binary is a Uint8Array (here a Buffer), sent as base64.")
		add(t.has[edm.Guid], "Guid is { value: \"…\", type: \"Guid\" }; a plain string would be stored as Edm.String.")
		add(reads, "Reading (@azure/data-tables 13.3), Int64 comes back as a BigInt, DateTime as a Date (milliseconds), Double and Int32 as numbers, Guid as { value, type: \"Guid\" } and Binary as a Uint8Array.")
		add(o.Kind == op.CreateTable, "createTable treats TableAlreadyExists as success; deleteTable treats a missing table the same way.")
		add(o.Kind == op.DeleteTable, "deleteTable treats a missing table (404) as success.")
	case Python:
		add(t.has[edm.Int64], "Int64 is EntityProperty(n, EdmType.INT64): exact. In azure-data-tables 12.4 a plain int beyond the Int32 range is refused with a TypeError.")
		add(t.has[edm.DateTime], "DateTime: a Python datetime holds microseconds, so the service's 100 ns digit cannot be written from one; the SDK reads DateTimes back as TablesEntityDatetime, whose tables_service_value keeps the service's text.")
		add(t.subMicr, "This entity has a DateTime with a 100 ns digit: the snippet sends it as EntityProperty(\"…\", EdmType.DATETIME), text the SDK passes through unchanged.")
		add(t.has[edm.Double], "Double is a float, always annotated Edm.Double, so 20.0 stays a Double.")
		add(t.has[edm.Binary], "Binary is bytes.")
		add(t.has[edm.Guid], "Guid is uuid.UUID; a plain str would be stored as Edm.String.")
		add(reads, "Reading, Int32 is an int, Int64 an EntityProperty(int, EdmType.INT64), Double a float, Guid a UUID, Binary bytes and DateTime a TablesEntityDatetime (microseconds).")
	case CSharp:
		n = append(n, "Not compiled here (no .NET toolchain is available): this C# is checked against golden files written by hand from Azure.Data.Tables' documented API.")
		add(t.has[edm.Int64], "Int64 is long: exact.")
		add(t.has[edm.DateTime], "DateTime is DateTimeOffset (or DateTime in UTC): 100 ns ticks, exact.")
		add(t.has[edm.Double], "Double is double; an integral 20.0 stays a Double.")
		add(t.has[edm.Binary], "Binary is byte[] (or BinaryData).")
		add(t.has[edm.Guid], "Guid is System.Guid.")
		add(reads, "Reading into TableEntity, each value has its .NET type: int, long, double, bool, string, DateTimeOffset, Guid, byte[].")
	case Curl:
		n = append(n, "The SAS in the script was signed by the engine with the emulator's well-known key; it is valid for 24 hours from when the code was generated.")
		add(len(t.has) > 0, "The JSON carries each value as the service reads it: Int64, DateTime, Guid and Binary as annotated strings, Double annotated so that 20.0 stays a Double.")
		add(reads, "The response is minimal metadata: Int64, DateTime, Guid and Binary carry an @odata.type annotation; a Double keeps its decimal point (20.0), an Int32 has none.")
		add(paged(o), "curl reads one page: repeat with the continuation headers (-D - shows them) for the next.")
	}
	return n
}
