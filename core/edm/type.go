package edm

// Type names one of the eight Edm types the Table service stores.
type Type uint8

// The Edm types. The zero Type is not a valid type; a zero Value has it.
const (
	Invalid Type = iota
	Binary
	Boolean
	DateTime
	Double
	Guid
	Int32
	Int64
	String
)

var typeNames = [...]string{
	Invalid:  "",
	Binary:   "Edm.Binary",
	Boolean:  "Edm.Boolean",
	DateTime: "Edm.DateTime",
	Double:   "Edm.Double",
	Guid:     "Edm.Guid",
	Int32:    "Edm.Int32",
	Int64:    "Edm.Int64",
	String:   "Edm.String",
}

// Types lists the eight valid types in a stable order, for pickers and tests.
func Types() []Type {
	return []Type{Binary, Boolean, DateTime, Double, Guid, Int32, Int64, String}
}

// String returns the type's wire name, e.g. "Edm.Int64" (empty for Invalid).
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return ""
}

// ParseType maps a wire name such as "Edm.Int64" to its Type. The service
// matches type names exactly (case-sensitively).
func ParseType(name string) (Type, bool) {
	for t := Binary; t <= String; t++ {
		if typeNames[t] == name {
			return t, true
		}
	}
	return Invalid, false
}
