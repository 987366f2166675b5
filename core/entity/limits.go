package entity

// The service's limits (F-KEY-SIZE, F-STRING-SIZE,
// F-ENTITY-SIZE, F-PROPERTY-COUNT).
const (
	MaxKeyLength      = 512     // UTF-16 code units in PartitionKey or RowKey (1 KiB)
	MaxStringLength   = 32767   // UTF-16 code units in an Edm.String
	MaxBinaryLength   = 65536   // bytes in an Edm.Binary
	MaxPropertyName   = 255     // characters in a property name
	MaxProperties     = 255     // properties including the three system ones
	MaxEntitySize     = 1 << 20 // bytes by the published formula
	MinTableNameLen   = 3
	MaxTableNameLen   = 63
	reservedTableName = "tables"
)
