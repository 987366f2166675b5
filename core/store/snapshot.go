package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// The snapshot document: one versioned JSON object describing a whole account
// with exact types (every value as its edm text form, so Int64, 100 ns
// DateTimes, Binary and Double specials survive):
//
//	{"format":"tableplay-account","version":1,"tables":[
//	  {"name":"Customers","created":"2026-01-02T03:04:05.1234567Z","entities":[
//	    {"PartitionKey":"p","RowKey":"r","Timestamp":"…Z",
//	     "properties":[["Name","Edm.String","Ada"],["Visits","Edm.Int64","12"]]}]}]}
const (
	SnapshotFormat  = "tableplay-account"
	SnapshotVersion = 1
)

type snapshotDoc struct {
	Format     string             `json:"format"`
	Version    int                `json:"version"`
	Properties *ServiceProperties `json:"properties,omitempty"`
	Tables     []snapshotTable    `json:"tables"`
}

type snapshotTable struct {
	Name     string           `json:"name"`
	Created  string           `json:"created"`
	ACL      []snapshotPolicy `json:"acl,omitempty"`
	Entities []snapshotEntity `json:"entities"`
}

// snapshotPolicy is a stored access policy; empty fields are absent.
type snapshotPolicy struct {
	ID         string `json:"id"`
	Start      string `json:"start,omitempty"`
	Expiry     string `json:"expiry,omitempty"`
	Permission string `json:"permission,omitempty"`
}

type snapshotEntity struct {
	PartitionKey string     `json:"PartitionKey"`
	RowKey       string     `json:"RowKey"`
	Timestamp    string     `json:"Timestamp"`
	Properties   [][]string `json:"properties"`
}

// Snapshot returns the account as a snapshot document: tables in the order of
// their lower-cased names, entities in key order. Each table is read from one
// consistent view.
func (s *Store) Snapshot() []byte {
	tables := s.tablesFrom("")
	props := s.Properties()
	doc := snapshotDoc{Format: SnapshotFormat, Version: SnapshotVersion, Properties: &props, Tables: make([]snapshotTable, 0, len(tables))}
	for _, t := range tables {
		v := t.view()
		dict := t.names.load() // after the view: it has every name the view's rows use
		st := snapshotTable{Name: t.name, Created: t.created.String(), Entities: make([]snapshotEntity, 0, v.Len())}
		st.ACL = t.policies()
		v.Scan(func(it item) bool {
			st.Entities = append(st.Entities, entityRecord(it.r.entity(dict, nil)))
			return true
		})
		doc.Tables = append(doc.Tables, st)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		// Only strings go in; encoding cannot fail.
		panic("store: snapshot encoding: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// entityRecord is an entity as a snapshot or a change record holds it.
func entityRecord(e *entity.Entity) snapshotEntity {
	se := snapshotEntity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: e.Timestamp.String(),
		Properties: make([][]string, len(e.Properties))}
	for i, p := range e.Properties {
		se.Properties[i] = []string{p.Name, p.Value.Type().String(), p.Value.Text()}
	}
	return se
}

// policies returns the table's stored access policies in record form.
func (t *table) policies() []snapshotPolicy {
	t.mu.Lock()
	defer t.mu.Unlock()
	return policyRecords(t.acl)
}

// policyRecords renders stored access policies as records; empty fields are
// left out.
func policyRecords(ids []SignedIdentifier) []snapshotPolicy {
	var out []snapshotPolicy
	for _, p := range ids {
		sp := snapshotPolicy{ID: p.ID, Permission: p.Permission}
		if p.Start != nil {
			sp.Start = p.Start.String()
		}
		if p.Expiry != nil {
			sp.Expiry = p.Expiry.String()
		}
		out = append(out, sp)
	}
	return out
}

// Restore replaces the whole account with a snapshot document. Everything is
// checked first — the format and version, every table name, every key,
// property name, type and value against the entity rules, duplicate tables
// and entities — and on any error the account is left untouched. Afterwards
// new Timestamps are above the largest restored one.
func (s *Store) Restore(doc []byte) error {
	tables, props, max, err := parseSnapshot(doc, s.profile.TableNames)
	if err == nil {
		tables, err = s.rekey(tables)
	}
	if err != nil {
		return err
	}
	if err := s.writable(); err != nil {
		return fmt.Errorf("%s", err.Message)
	}
	if err := s.durable(s.replace(tables, props, max, doc)); err != nil {
		return fmt.Errorf("%s", err.Message)
	}
	s.changed()
	return nil
}

// Load replaces the whole account with a snapshot document as Restore does,
// without recording the change: it is how a journal's owner starts from its
// compacted snapshot.
func (s *Store) Load(doc []byte) error {
	tables, props, max, err := parseSnapshot(doc, s.profile.TableNames)
	if err == nil {
		tables, err = s.rekey(tables)
	}
	if err != nil {
		return err
	}
	s.replace(tables, props, max, nil)
	return nil
}

// rekey keys parsed tables, which the parsers key by their exact names, as
// this account keys them (tableKey): two names one key would merge are an
// error, never a lost table.
func (s *Store) rekey(tables map[string]*table) (map[string]*table, error) {
	keyed := make(map[string]*table, len(tables))
	for _, t := range tables {
		k := s.tableKey(t.name)
		if _, dup := keyed[k]; dup {
			return nil, fmt.Errorf("table %q: the account already has a table of that name", t.name)
		}
		keyed[k] = t
	}
	return keyed, nil
}

// replace installs a parsed account. The tables it replaces are dropped, so
// that a writer holding one of them cannot change it afterwards; doc, when
// set, is recorded.
func (s *Store) replace(tables map[string]*table, props ServiceProperties, max edm.Ticks, doc []byte) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tables {
		t.drop(func() uint64 { return 0 })
	}
	s.tables = tables
	s.props = props
	if max > s.floor {
		s.floor = max
	}
	if doc == nil {
		return 0
	}
	return s.record(func() change { return change{Op: opRestore, Doc: doc} })
}

// parseSnapshot validates a document completely and builds the account: its
// tables, its service properties (a new account's when the document has
// none) and the largest Timestamp.
func parseSnapshot(doc []byte, names profile.TableNameRule) (map[string]*table, ServiceProperties, edm.Ticks, error) {
	var props ServiceProperties
	tables, max, err := parseTables(doc, &props, names)
	return tables, props, max, err
}

// parseTables does parseSnapshot's work; props receives the properties.
func parseTables(doc []byte, props *ServiceProperties, names profile.TableNameRule) (map[string]*table, edm.Ticks, error) {
	var d snapshotDoc
	if !odata.WithinDepth(doc, odata.MaxDepth) {
		return nil, 0, fmt.Errorf("not a tableplay account document: objects or arrays nested too deeply")
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, 0, fmt.Errorf("not a tableplay account document: %v", err)
	}
	if dec.More() {
		return nil, 0, fmt.Errorf("not a tableplay account document: text after the document")
	}
	if d.Format != SnapshotFormat {
		return nil, 0, fmt.Errorf("not a tableplay account document: format is %q, want %q", d.Format, SnapshotFormat)
	}
	if d.Version != SnapshotVersion {
		return nil, 0, fmt.Errorf("unsupported document version %d (this build reads version %d)", d.Version, SnapshotVersion)
	}
	*props = defaultProperties()
	if d.Properties != nil {
		p, err := d.Properties.check()
		if err != nil {
			return nil, 0, fmt.Errorf("properties: not valid service properties: %v", err)
		}
		*props = p
	}
	tables := make(map[string]*table, len(d.Tables))
	var max edm.Ticks
	for ti, st := range d.Tables {
		where := fmt.Sprintf("table %d (%q)", ti+1, st.Name)
		if err := entity.CheckTableNameBy(names, st.Name); err != nil {
			return nil, 0, fmt.Errorf("%s: %s", where, err.Message)
		}
		key := st.Name // keyed by the account afterwards (rekey)
		if _, dup := tables[key]; dup {
			return nil, 0, fmt.Errorf("%s: the account already has a table of that name", where)
		}
		created, err := edm.ParseDateTime(st.Created)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: created: %v", where, err)
		}
		t := newTable(st.Name, created)
		if len(st.ACL) > MaxSignedIdentifiers {
			return nil, 0, fmt.Errorf("%s: more than %d stored access policies", where, MaxSignedIdentifiers)
		}
		for _, p := range st.ACL {
			id, err := restorePolicy(p)
			if err != nil {
				return nil, 0, fmt.Errorf("%s, policy %q: %v", where, p.ID, err)
			}
			t.acl = append(t.acl, id)
		}
		for ei, se := range st.Entities {
			e, err := restoreEntity(se)
			if err != nil {
				return nil, 0, fmt.Errorf("%s, entity %d: %v", where, ei+1, err)
			}
			if _, replaced := t.work.Set(itemOf(t.pack(e, e.Timestamp, nil), e.PartitionKey, e.RowKey)); replaced {
				return nil, 0, fmt.Errorf("%s, entity %d: PartitionKey %q and RowKey %q appear twice", where, ei+1, e.PartitionKey, e.RowKey)
			}
			if e.Timestamp > t.last {
				t.last = e.Timestamp
			}
		}
		if t.last > max {
			max = t.last
		}
		tables[key] = t
	}
	return tables, max, nil
}

func restorePolicy(p snapshotPolicy) (SignedIdentifier, error) {
	id := SignedIdentifier{ID: p.ID, Permission: p.Permission, HasPolicy: p.Start != "" || p.Expiry != "" || p.Permission != ""}
	if p.ID == "" || len(p.ID) > 64 {
		return id, fmt.Errorf("an id has 1 to 64 characters")
	}
	if strings.Trim(p.Permission, "raud") != "" {
		return id, fmt.Errorf("permission %q: use the letters r, a, u, d", p.Permission)
	}
	for _, f := range []struct {
		text string
		dst  **edm.Ticks
	}{{p.Start, &id.Start}, {p.Expiry, &id.Expiry}} {
		if f.text == "" {
			continue
		}
		t, err := edm.ParseDateTime(f.text)
		if err != nil {
			return id, err
		}
		*f.dst = &t
	}
	return id, nil
}

func restoreEntity(se snapshotEntity) (*entity.Entity, error) {
	ts, err := edm.ParseDateTime(se.Timestamp)
	if err != nil {
		return nil, fmt.Errorf("Timestamp: %v", err)
	}
	fields := make([]entity.Field, 0, len(se.Properties))
	for i, p := range se.Properties {
		if len(p) != 3 {
			return nil, fmt.Errorf("property %d: want [name, type, value], got %d items", i+1, len(p))
		}
		if isReserved(p[0]) {
			return nil, fmt.Errorf("property %d: %q is not a custom property", i+1, p[0])
		}
		t, ok := edm.ParseType(p[1])
		if !ok {
			return nil, fmt.Errorf("property %q: unknown type %q", p[0], p[1])
		}
		v, err := edm.ParseString(t, p[2])
		if err != nil {
			return nil, fmt.Errorf("property %q: %v", p[0], err)
		}
		fields = append(fields, entity.Field{Name: p[0], Value: v})
	}
	return buildEntity(se.PartitionKey, se.RowKey, ts, fields)
}

// buildEntity makes a stored entity of keys, a Timestamp and custom
// properties, checked against the entity rules.
func buildEntity(pk, rk string, ts edm.Ticks, fields []entity.Field) (*entity.Entity, error) {
	d := entity.Draft{Fields: make([]entity.Field, 0, len(fields)+2)}
	d.Fields = append(d.Fields,
		entity.Field{Name: entity.PartitionKey, Value: edm.StringValue(pk)},
		entity.Field{Name: entity.RowKey, Value: edm.StringValue(rk)})
	d.Fields = append(d.Fields, fields...)
	e, terr := entity.Build(d)
	if terr != nil {
		return nil, ruleError(terr)
	}
	e.Timestamp = ts
	var k keeper
	k.keep(e)
	return e, nil
}

// ruleError is a broken entity rule as a snapshot's error.
func ruleError(terr *tableerr.Error) error {
	msg := string(terr.Code) + ": " + terr.Message
	if terr.Rule != nil && terr.Rule.Property != "" {
		msg = "property " + fmt.Sprintf("%q", terr.Rule.Property) + ": " + msg
	}
	return errors.New(msg)
}

// isReserved reports names a snapshot's property list must not hold: the
// system properties (stored in their own fields) and metadata names, which
// entity.Build would drop silently.
func isReserved(name string) bool {
	return name == entity.PartitionKey || name == entity.RowKey || name == entity.Timestamp || strings.HasPrefix(name, "odata.")
}
