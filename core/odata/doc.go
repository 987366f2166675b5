// Package odata is the Table service's JSON wire format: it decodes entity and
// table bodies into typed values (with every entity rule applied) and encodes
// entities, query results, tables and error bodies at the three metadata
// levels, byte for byte as the live service writes them.
//
// Reading uses gjson on validated input; writing appends bytes directly, with
// edm formatting every value (sjson would write 2.0 as 2 and NaN as invalid
// JSON).
package odata
