package tableerr

// Rule is the data behind one rule card in the playground: which rule a value
// broke, where, by how much, and where the rule is written down. It is data,
// not prose: the page renders it.
type Rule struct {
	// ID is a stable identifier such as "string-too-long".
	ID string `json:"id"`
	// Property names the property (or "TableName", "PartitionKey", …).
	Property string `json:"property,omitempty"`
	// Measured and Limit are set for size and count rules, in Unit.
	Measure *Measure `json:"measure,omitempty"`
	// Detail names what was found where no number fits, e.g. the offending
	// character ("'/' at position 3").
	Detail string `json:"detail,omitempty"`
	// Statement is the rule in one sentence.
	Statement string `json:"statement"`
	// Section names the document section the rule comes from and DocURL links it.
	Section string `json:"section"`
	// DocURL links to that section.
	DocURL string `json:"docUrl"`
	// Disputed is set where the docs, the service and emulators disagree on
	// the rule; Dispute says how (and what tableplay does).
	Disputed bool `json:"disputed"`
	// Dispute says how they disagree and what tableplay does; empty unless
	// Disputed.
	Dispute string `json:"dispute,omitempty"`
	// Variant names Statement's wording where one rule has more than one
	// (a locale's catalogue holds it as rule.<ID>.<Variant>); empty for
	// the usual one. The page never sees it.
	Variant string `json:"-"`
	// DetailID, when set, is Detail as a catalogue message (detail.<ID>)
	// filled with DetailArgs (name, value, …), so the page can have it in
	// its language; Detail stays the English.
	DetailID string `json:"-"`
	// DetailArgs are DetailID's placeholders and their values in turn.
	DetailArgs []any `json:"-"`
}

// Measure is a measured quantity against its limit.
type Measure struct {
	// Value is what was measured.
	Value int64 `json:"value"`
	// Limit is the most the rule allows.
	Limit int64  `json:"limit"`
	Unit  string `json:"unit"` // e.g. "UTF-16 code units", "bytes", "properties"
}
