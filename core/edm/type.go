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

// Types lists the eight valid types in a stable order, for pickers and tests.
func Types() []Type {
	return []Type{Binary, Boolean, DateTime, Double, Guid, Int32, Int64, String}
}

// String returns the type's wire name, e.g. "Edm.Int64" (empty for Invalid).
func (t Type) String() string {
	switch t {
	case Binary:
		return "Edm.Binary"
	case Boolean:
		return "Edm.Boolean"
	case DateTime:
		return "Edm.DateTime"
	case Double:
		return "Edm.Double"
	case Guid:
		return "Edm.Guid"
	case Int32:
		return "Edm.Int32"
	case Int64:
		return "Edm.Int64"
	case String:
		return "Edm.String"
	}
	return ""
}

// ParseType maps a wire name such as "Edm.Int64" to its Type. The service
// matches type names exactly (case-sensitively).
func ParseType(name string) (Type, bool) {
	switch name {
	case "Edm.Binary":
		return Binary, true
	case "Edm.Boolean":
		return Boolean, true
	case "Edm.DateTime":
		return DateTime, true
	case "Edm.Double":
		return Double, true
	case "Edm.Guid":
		return Guid, true
	case "Edm.Int32":
		return Int32, true
	case "Edm.Int64":
		return Int64, true
	case "Edm.String":
		return String, true
	}
	return Invalid, false
}
