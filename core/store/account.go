package store

import (
	"sort"
	"strings"
	"sync"

	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/filter"
	"github.com/tableplay/tableplay/core/profile"
	"github.com/tableplay/tableplay/core/tableerr"
)

// Store is one storage account's table service.
type Store struct {
	clock   Clock
	profile profile.Profile // read-only after New

	mu       sync.RWMutex
	tables   map[string]*table // by lower-cased name
	floor    edm.Ticks         // guarded by mu: Timestamps stay above restored ones
	props    ServiceProperties // guarded by mu
	onChange func()
	journal  Journal // nil: the account lives in memory only
}

// Options configure a Store.
type Options struct {
	// Clock is required: the store never reads the system clock.
	Clock Clock
	// OnChange, if set, is called after every change to the account (for
	// persistence); it must not call back into the store synchronously.
	OnChange func()
	// Journal, if set, records every change and makes it durable before
	// the call that made it returns (see Journal).
	Journal Journal
	// Profile is the implementation the account behaves as; the zero
	// value is Azure Table Storage.
	Profile profile.Profile
}

// New returns an empty account.
func New(o Options) *Store {
	pr := o.Profile
	if pr.Name == "" {
		pr = profile.Default()
	}
	s := &Store{clock: o.Clock, profile: pr, tables: map[string]*table{}, props: defaultProperties(), onChange: o.OnChange, journal: o.Journal}
	return s
}

// Profile returns the implementation the account behaves as; a nil store's
// is the default.
func (s *Store) Profile() profile.Profile {
	if s == nil {
		return profile.Default()
	}
	return s.profile
}

// tableKey is the key a table name is kept under: lower-cased where names
// differ only in case name one table (Azure), the name itself where they
// name distinct tables (F-COSMOS-TABLE-CASE).
func (s *Store) tableKey(name string) string {
	if s.profile.CaseSensitiveTableNames {
		return name
	}
	return strings.ToLower(name)
}

func (s *Store) changed() {
	if s.onChange != nil {
		s.onChange()
	}
}

// CreateTable creates a table after checking its name; a name that exists in
// any case is 409 TableAlreadyExists. It returns the name as stored.
func (s *Store) CreateTable(name string) (string, *tableerr.Error) {
	if err := entity.CheckTableNameBy(s.profile.TableNames, name); err != nil {
		return "", err
	}
	if err := s.writable(); err != nil {
		return "", err
	}
	if err := s.settle(s.createTable(name)); err != nil {
		return "", err
	}
	return name, nil
}

func (s *Store) createTable(name string) (uint64, *tableerr.Error) {
	key := s.tableKey(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[key]; ok {
		return 0, tableerr.New(tableerr.TableAlreadyExists)
	}
	// At the end of time a table is created at the last instant: its time
	// is never shown, only kept (F-TIMESTAMP-END).
	created, _ := stamp(s.clock, 0, s.floor)
	t := newTable(name, created)
	s.tables[key] = t
	return s.record(func() change { return change{Op: opCreateTable, Table: name, Created: t.created.String()} }), nil
}

// GetTable returns a table's stored name, or 404 ResourceNotFound (F-NOT-FOUND).
func (s *Store) GetTable(name string) (string, *tableerr.Error) {
	t := s.lookup(name)
	if t == nil {
		return "", tableerr.New(tableerr.ResourceNotFound)
	}
	return t.name, nil
}

// DeleteTable deletes a table and its entities, or answers 404
// ResourceNotFound (F-NOT-FOUND).
func (s *Store) DeleteTable(name string) *tableerr.Error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.settle(s.deleteTable(name))
}

func (s *Store) deleteTable(name string) (uint64, *tableerr.Error) {
	key := s.tableKey(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[key]
	if !ok {
		return 0, tableerr.New(tableerr.ResourceNotFound)
	}
	delete(s.tables, key)
	return t.drop(func() uint64 {
		return s.record(func() change { return change{Op: opDeleteTable, Table: t.name} })
	}), nil
}

// tablesFrom returns the tables whose key (tableKey) is from or after, in
// that order.
func (s *Store) tablesFrom(from string) []*table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := make([]*table, 0, len(s.tables))
	for key, t := range s.tables {
		if key >= from {
			all = append(all, t)
		}
	}
	sort.Slice(all, func(i, j int) bool { return s.tableKey(all[i].name) < s.tableKey(all[j].name) })
	return all
}

func (s *Store) lookup(name string) *table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tables[s.tableKey(name)]
}

// tableFor returns the table an entity operation or query addresses, or 404
// TableNotFound (F-NOT-FOUND).
func (s *Store) tableFor(name string) (*table, *tableerr.Error) {
	if t := s.lookup(name); t != nil {
		return t, nil
	}
	return nil, tableerr.New(tableerr.TableNotFound)
}

// floorTicks returns the Timestamp floor set by a restore.
func (s *Store) floorTicks() edm.Ticks {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.floor
}

// TableQuery is a Query Tables request.
type TableQuery struct {
	Filter        filter.Node // on TableName only; nil for all tables
	Top           int         // 1–1000; 0 means 1000, NoEntities none
	NextTableName string      // a continuation token from a previous page
}

// TablePage is one page of table names, in the order of their lower-cased
// names, and the token for the next page when more tables match (F-TABLE-LIST-ORDER, F-CONTINUATION-LOOKAHEAD).
type TablePage struct {
	// Names are the table names in the case they were created with, at most
	// a page of them.
	Names []string
	// NextTableName is the token for the next page; empty when no more
	// tables match.
	NextTableName string
}

// tableRecord lets a filter see a table as {TableName: name}.
type tableRecord string

// Get answers TableName and nothing else.
func (r tableRecord) Get(name string) (edm.Value, bool) {
	if name == "TableName" {
		return edm.StringValue(string(r)), true
	}
	return edm.Value{}, false
}

// ListTables answers Query Tables. A filter on any property other than
// TableName is the 500 InternalError the service answers.
func (s *Store) ListTables(q TableQuery) (TablePage, *tableerr.Error) {
	if q.Filter != nil {
		for _, p := range filter.Properties(q.Filter) {
			if p != "TableName" {
				return TablePage{}, tableerr.New(tableerr.InternalError)
			}
		}
	}
	from := ""
	if q.NextTableName != "" {
		name, ok := decodeTableToken(q.NextTableName)
		if !ok {
			return TablePage{}, tableerr.New(tableerr.InvalidInput)
		}
		from = s.tableKey(name)
	}
	top := pageSize(q.Top)
	all := s.tablesFrom(from)
	var page TablePage
	for _, t := range all {
		if q.Filter != nil && !q.Filter.Eval(tableRecord(t.name)) {
			continue
		}
		if len(page.Names) == top {
			page.NextTableName = encodeTableToken(s.tableKey(t.name), t.created)
			break
		}
		page.Names = append(page.Names, t.name)
	}
	return page, nil
}
