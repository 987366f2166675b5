package profile

// Difference is one way an implementation departs from Azure Table
// Storage, said in a sentence for a person: the page shows it on the rule
// cards and beside the fields it concerns, so the words come from here and
// not from the page.
type Difference struct {
	// ID is the docs/fidelity.md entry, such as "F-COSMOS-TABLE-CASE".
	ID string `json:"id"`
	// Profile is the name of the profile that differs.
	Profile string `json:"profile"`
	// Concerns are the rule ids (core/entity's, "table-name" for any table
	// name) next to which the difference is worth saying.
	Concerns []string `json:"concerns"`
	// Sentence says the difference, naming both implementations.
	Sentence string `json:"sentence"`
	// Reproduced says whether the profile answers this way; false when
	// it answers as Azure does and only the sentence tells.
	Reproduced bool `json:"reproduced"`
}

// Differences lists the differences people meet first, in the order the
// profiles are shown. Every ID is an entry of docs/fidelity.md
// (TestDifferencesCiteFidelity).
func Differences() []Difference {
	return []Difference{
		{"F-COSMOS-TABLE-CASE", "cosmos", []string{"table-name"},
			"On Cosmos DB for Table, names that differ only in case are different tables: People and people are two tables there, one on Azure Table Storage.", true},
		{"F-COSMOS-ORDER", "cosmos", []string{"query"},
			"Cosmos DB for Table does not return query results in PartitionKey and RowKey order; Azure Table Storage always does.", true},
		{"F-COSMOS-ROWKEY-SIZE", "cosmos", []string{"key-too-long"},
			"On Cosmos DB for Table a RowKey holds at most 255 bytes of UTF-8; Azure Table Storage allows 512 UTF-16 code units.", true},
		{"F-COSMOS-RESERVED-NAMES", "cosmos", []string{"property-name-invalid"},
			"Cosmos DB for Table refuses the property names ID, rid and ResourceId, in any case; Azure Table Storage accepts them.", true},
		{"F-COSMOS-BATCH-SIZE", "cosmos", []string{"batch-size"},
			"On Cosmos DB for Table a batch body holds at most 2 MB; Azure Table Storage allows 4 MiB.", true},
		{"F-AZURITE-GET-TABLE", "azurite-3.37", []string{"table-name"},
			"Azurite 3.37 compares case when one table is read by name: Tables('people') is not found when the table is People; Azure Table Storage finds it.", true},
		{"F-AZURITE-EMPTY-CODE", "azurite-3.37", []string{"table-name-characters", "table-name-too-short", "table-name-too-long", "table-name-reserved"},
			"Azurite 3.37 refuses a bad table name with an empty error code; Azure Table Storage names the code, so code that tests the code passes only on Azure.", true},
		{"F-PROPERTY-COUNT", "azurite-3.37", []string{"too-many-properties"},
			"Azurite 3.37 accepts more than 252 properties and Azure Table Storage does not; the azurite-3.37 profile refuses them as Azure does.", false},
		{"F-AZURITE-LAX-VALUES", "azurite-3.37", []string{"value-invalid"},
			"Azurite 3.37 accepts an Int32 out of range, a delete without If-Match and $top above 1,000, which Azure Table Storage refuses; the azurite-3.37 profile takes the delete and the $top as Azurite does and refuses the Int32 as Azure does.", false},
		{"F-AZURITE-DOUBLE", "azurite-3.37", []string{"double"},
			"Azurite 3.37 writes a whole Double such as 3.0 as 3, so a client reads it back as an integer; Azure Table Storage writes 3.0.", true},
	}
}

// DifferencesFor returns the differences that concern a rule id, in
// Differences' order.
func DifferencesFor(concern string) []Difference {
	var out []Difference
	for _, d := range Differences() {
		for _, c := range d.Concerns {
			if c == concern {
				out = append(out, d)
				break
			}
		}
	}
	return out
}
