package odata

// Level is an OData JSON metadata level.
type Level uint8

// The three metadata levels, as named in Accept and $format.
const (
	NoMetadata Level = iota
	MinimalMetadata
	FullMetadata
)

// String returns the level's name as it appears after "odata=".
func (l Level) String() string {
	switch l {
	case NoMetadata:
		return "nometadata"
	case FullMetadata:
		return "fullmetadata"
	}
	return "minimalmetadata"
}

// ParseLevel reads a level name ("nometadata", "minimalmetadata",
// "fullmetadata").
func ParseLevel(s string) (Level, bool) {
	switch s {
	case "nometadata":
		return NoMetadata, true
	case "minimalmetadata":
		return MinimalMetadata, true
	case "fullmetadata":
		return FullMetadata, true
	}
	return MinimalMetadata, false
}

// ContentType is the Content-Type of a JSON body at this level (F-HEADERS).
func (l Level) ContentType() string {
	switch l {
	case NoMetadata:
		return "application/json;odata=nometadata;streaming=true;charset=utf-8"
	case FullMetadata:
		return "application/json;odata=fullmetadata;streaming=true;charset=utf-8"
	}
	return "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
}
