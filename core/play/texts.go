package play

import (
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/locale"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The ids of the texts this package writes for the page, in the locale's
// catalogue (web/locales/<lang>/rules.json). Texts of rule cards are keyed
// by the rule (RuleMessageIDs).
const (
	msgFidelityNote      = "card.fidelityNote"
	msgScanNothing       = "explain.range.empty"
	msgScanTable         = "explain.range.table"
	msgScanRange         = "explain.range.keys"
	msgScanPartition     = "explain.range.partition"
	msgWhere             = "explain.where"
	msgHint              = "explain.hint"
	msgBoundsAnd         = "explain.bounds.and"
	msgClauseEntity      = "explain.clause.entity"
	msgClauseMismatch    = "explain.clause.mismatch"
	msgClauseNe          = "explain.clause.ne"
	msgClauseRange       = "explain.clause.range"
	msgClauseRowKey      = "explain.clause.rowKey"
	msgClauseOr          = "explain.clause.or"
	msgMismatch          = "explain.mismatch"
	msgTrue              = "explain.true"
	msgFalse             = "explain.false"
	msgBatchEntities     = "batch.rule.entities"
	msgBatchPartition    = "batch.rule.partition"
	msgBatchSize         = "batch.rule.size"
	msgBatchOnce         = "batch.rule.once"
	msgTokenPartition    = "token.partition"
	msgTokenPartitionRow = "token.partitionRow"
	msgTokenTable        = "token.table"
	msgTokenInvalid      = "token.invalid"
	msgNoteUnannotated   = "body.unannotated"
	msgNoteDoubleInexact = "body.doubleInexact"
	msgNoteDouble        = "body.double"
	msgUnitBytes         = "unit.bytes"
	msgUnitCharacters    = "unit.characters"
	msgUnitProperties    = "unit.properties"
	msgUnitUTF16         = "unit.utf16"
	msgSectionPrefix     = "section."
	msgRulePrefix        = "rule."
	msgDetailPrefix      = "detail."
	msgDifferencePrefix  = "difference."
	statementSuffix      = ".statement"
	disputeSuffix        = ".dispute"
)

// MessageIDs lists every catalogue id this package uses, rule cards
// included: the catalogue test holds every locale's rules.json to it.
func MessageIDs() []string {
	ids := []string{
		msgFidelityNote, msgScanNothing, msgScanTable, msgScanRange, msgScanPartition, msgWhere, msgHint, msgBoundsAnd,
		msgClauseEntity, msgClauseMismatch, msgClauseNe, msgClauseRange, msgClauseRowKey, msgClauseOr, msgMismatch,
		msgBatchEntities, msgBatchPartition, msgBatchSize, msgBatchOnce,
		msgTokenPartition, msgTokenPartitionRow, msgTokenTable, msgTokenInvalid,
		msgNoteUnannotated, msgNoteDoubleInexact, msgNoteDouble,
		msgUnitBytes, msgUnitCharacters, msgUnitProperties, msgUnitUTF16,
	}
	for _, r := range ruleTexts() {
		ids = append(ids, msgRulePrefix+r.key+statementSuffix)
		if r.disputed {
			ids = append(ids, msgRulePrefix+r.key+disputeSuffix)
		}
	}
	for _, s := range sections() {
		ids = append(ids, msgSectionPrefix+s[1])
	}
	for _, d := range details() {
		ids = append(ids, msgDetailPrefix+d)
	}
	for _, d := range profile.Differences() {
		ids = append(ids, msgDifferencePrefix+d.ID)
	}
	return ids
}

// ruleText is one wording of a rule: its key (the rule's id, or id.variant)
// and whether it has a dispute.
type ruleText struct {
	key      string
	disputed bool
}

// ruleTexts are the rules the engine's packages write (core/entity,
// core/store, core/odata), each wording once.
func ruleTexts() []ruleText {
	return []ruleText{
		{"table-name-too-long", false}, {"table-name-too-short", false},
		{"table-name-too-long.cosmos", false}, {"table-name-too-short.cosmos", false},
		{"table-name-characters", true}, {"table-name-characters.digit-first", true},
		{"table-name-characters.cosmos", false}, {"table-name-characters.cosmos-space", false},
		{"table-name-reserved", true},
		{"property-duplicate", false}, {"entity-too-large", true}, {"too-many-properties", false},
		{"key-missing", false}, {"key-not-string", false}, {"key-not-utf8", false}, {"key-characters", true}, {"key-too-long", true},
		{"value-invalid", false}, {"datetime-out-of-range", false}, {"int64-unquoted", true}, {"type-unknown", false},
		{"string-too-long", true}, {"binary-too-large", false},
		{"property-name-too-long", false}, {"property-name-invalid", false},
		{"json-invalid", false}, {"timestamp-end-of-time", false},
		{"cosmos-empty-key", false}, {"cosmos-reserved-name", false}, {"cosmos-rowkey-bytes", false},
	}
}

// sections maps the English section names rules cite to their catalogue
// keys.
func sections() [][2]string {
	return [][2]string{
		{"Understanding the Table service data model › Table names", "tableNames"},
		{"Understanding the Table service data model › Property names", "propertyNames"},
		{"Understanding the Table service data model › Characters disallowed in key fields", "keyCharacters"},
		{"Understanding the Table service data model › PartitionKey and RowKey properties", "keys"},
		{"Understanding the Table service data model › Property types", "propertyTypes"},
		{"Understanding the Table service data model › Properties", "properties"},
		{"Payload format for Table service operations › Property types in a JSON feed", "payloadTypes"},
		{"How the size of an entity is calculated (Microsoft, 2011)", "entitySize"},
		{"Property types", "propertyTypes.short"},
		{"Payload format for Table service operations", "payload"},
	}
}

// details are the DetailIDs rules set.
func details() []string {
	ids := []string{"at-character", "space-at-end", "not-utf8", "timestamp-end", "value-of-type", "name-empty"}
	for _, r := range edm.Reasons() {
		ids = append(ids, entity.DetailPrefix+r.ID)
	}
	return ids
}

// localRule is r in the locale's words: its statement, section, dispute,
// detail and unit from the catalogue and its Learn link in the locale's
// edition. A nil locale keeps the rule as the engine wrote it (English).
func localRule(loc *locale.Locale, r tableerr.Rule) tableerr.Rule {
	if loc == nil {
		return r
	}
	key := r.ID
	if r.Variant != "" {
		key += "." + r.Variant
	}
	r.Statement = loc.T(msgRulePrefix + key + statementSuffix)
	if r.Dispute != "" {
		r.Dispute = loc.T(msgRulePrefix + key + disputeSuffix)
	}
	for _, s := range sections() {
		if s[0] == r.Section {
			r.Section = loc.T(msgSectionPrefix + s[1])
			break
		}
	}
	if r.DetailID != "" {
		r.Detail = loc.T(msgDetailPrefix+r.DetailID, r.DetailArgs...)
	}
	if r.Measure != nil {
		m := *r.Measure
		m.Unit = localUnit(loc, m.Unit, m.Limit)
		r.Measure = &m
	}
	r.DocURL = loc.LearnURL(r.DocURL)
	return r
}

// localUnit is a measure's unit in the locale's words, in the plural form
// its limit takes.
func localUnit(loc *locale.Locale, unit string, limit int64) string {
	id := ""
	switch unit {
	case "bytes":
		id = msgUnitBytes
	case "characters":
		id = msgUnitCharacters
	case "properties":
		id = msgUnitProperties
	case "UTF-16 code units":
		id = msgUnitUTF16
	default:
		return unit
	}
	return strings.TrimSpace(loc.T(id, "n", limit))
}

// LocalDifferences are the profiles' differences with their sentences in
// the locale (as they are for a nil locale).
func LocalDifferences(loc *locale.Locale, ds []profile.Difference) []profile.Difference {
	if loc == nil || ds == nil {
		return ds
	}
	out := make([]profile.Difference, len(ds))
	for i, d := range ds {
		d.Sentence = loc.T(msgDifferencePrefix + d.ID)
		out[i] = d
	}
	return out
}
