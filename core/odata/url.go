package odata

// AppendEntityPath appends an entity's path relative to the account, the
// form of odata.editLink and of Location after the base URL:
// table(PartitionKey='pk',RowKey='rk'), quotes in keys doubled and the key
// text percent-encoded as the service does (UTF-8, e.g. '%E4%BD%A0').
func AppendEntityPath(b []byte, table, pk, rk string) []byte {
	b = append(b, table...)
	b = append(b, "(PartitionKey='"...)
	b = appendKey(b, pk)
	b = append(b, "',RowKey='"...)
	b = appendKey(b, rk)
	return append(b, "')"...)
}

// EntityPath returns AppendEntityPath's text.
func EntityPath(table, pk, rk string) string {
	var buf [256]byte // typical paths are written on the stack and copied once
	return string(AppendEntityPath(buf[:0], table, pk, rk))
}

// TablePath returns a table's path relative to the account: Tables('name').
func TablePath(name string) string { return "Tables('" + name + "')" }

func appendKey(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			b = append(b, '\'', '\'')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '!', c == '$', c == '&', c == '(', c == ')',
			c == '*', c == '+', c == ',', c == ';', c == '=', c == ':', c == '@':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}
