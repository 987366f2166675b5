package tablecsv

import (
	"fmt"
	"strings"
)

// Bounds on what Read accepts, so that a hostile file costs at most about
// its own size in memory: the text, the fields and the rows.
const (
	// MaxBytes is the largest file Read takes.
	MaxBytes = 16 << 20
	// MaxColumns is the most columns in a row: the keys, the timestamp and
	// a value and a type column for each of the 252 properties, with room
	// for a file that also has type columns for the keys.
	MaxColumns = 1024
	// MaxRows is the most entities in one file.
	MaxRows = 100_000
	// MaxCells is the most fields in the whole file: a file of empty fields
	// would otherwise cost 16 bytes of string header per byte of text.
	MaxCells = 1 << 20
)

// SyntaxError is a malformed CSV file, at a 1-based line.
type SyntaxError struct {
	// Line is the 1-based line where the fault is.
	Line int
	// Reason says what is malformed.
	Reason string
}

// Error implements error as "line N: reason".
func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// record is one row of fields and the line it starts on.
type record struct {
	line   int
	fields []string
}

// records splits CSV text (RFC 4180: fields separated by commas, records by
// CRLF or LF, a field in double quotes may hold commas, quotes doubled and
// line breaks, kept exactly) into records. A UTF-8 byte-order mark at the
// start is skipped. Empty lines between records are skipped.
func records(text string) ([]record, error) {
	if len(text) > MaxBytes {
		return nil, &SyntaxError{Line: 1, Reason: fmt.Sprintf("the file is larger than %d bytes", MaxBytes)}
	}
	text = strings.TrimPrefix(text, "\ufeff")
	var out []record
	line := 1
	i := 0
	cells := 0
	for i < len(text) {
		if text[i] == '\n' || text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			// An empty line.
			if text[i] == '\r' {
				i++
			}
			i++
			line++
			continue
		}
		if len(out) > MaxRows {
			return nil, &SyntaxError{Line: line, Reason: fmt.Sprintf("more than %d rows", MaxRows)}
		}
		rec := record{line: line}
		for {
			if len(rec.fields) >= MaxColumns {
				return nil, &SyntaxError{Line: line, Reason: fmt.Sprintf("more than %d columns", MaxColumns)}
			}
			if cells++; cells > MaxCells {
				return nil, &SyntaxError{Line: line, Reason: fmt.Sprintf("more than %d fields in the file", MaxCells)}
			}
			var f string
			var err error
			f, i, line, err = field(text, i, line)
			if err != nil {
				return nil, err
			}
			rec.fields = append(rec.fields, f)
			if i >= len(text) {
				break
			}
			if text[i] == ',' {
				i++
				continue
			}
			// End of record: LF or CRLF.
			if text[i] == '\r' {
				i++
			}
			i++
			line++
			break
		}
		out = append(out, rec)
	}
	return out, nil
}

// field reads one field at i and returns it with the index after it (at a
// comma, a line break or the end).
func field(text string, i, line int) (string, int, int, error) {
	if i < len(text) && text[i] == '"' {
		start := line
		var b strings.Builder
		i++
		for {
			j := strings.IndexByte(text[i:], '"')
			if j < 0 {
				return "", 0, 0, &SyntaxError{Line: start, Reason: "a quoted field is not closed"}
			}
			chunk := text[i : i+j]
			line += strings.Count(chunk, "\n")
			b.WriteString(chunk)
			i += j + 1
			if i < len(text) && text[i] == '"' {
				b.WriteByte('"')
				i++
				continue
			}
			break
		}
		if i < len(text) && !atEnd(text, i) {
			return "", 0, 0, &SyntaxError{Line: line, Reason: "text after a closing quote (quotes inside a field are doubled)"}
		}
		return b.String(), i, line, nil
	}
	j := i
	for j < len(text) && !atEnd(text, j) {
		if text[j] == '"' {
			return "", 0, 0, &SyntaxError{Line: line, Reason: "a quote inside an unquoted field (quote the field and double the quote)"}
		}
		if text[j] == '\r' {
			return "", 0, 0, &SyntaxError{Line: line, Reason: "a carriage return inside an unquoted field"}
		}
		j++
	}
	return text[i:j], j, line, nil
}

// atEnd reports whether a field ends at i: a comma, LF or CRLF.
func atEnd(text string, i int) bool {
	switch text[i] {
	case ',', '\n':
		return true
	case '\r':
		return i+1 < len(text) && text[i+1] == '\n'
	}
	return false
}
