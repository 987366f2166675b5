package lesson

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// Bounds on what one lesson may generate, so a lesson file cannot make the
// engine build an unbounded account: entities, values (keys included) and
// the length of a format.
const (
	MaxGenerated       = 10000
	MaxGeneratedValues = 50000
	MaxFormat          = 64
)

// Dataset describes entities the engine generates into one of the start
// account's tables: Count entities, the i-th built from its index and from
// seeded pseudo-random numbers, so a lesson names thousands of entities in a
// few lines and every run builds the same ones.
type Dataset struct {
	// Table is the table the entities go to; it is added when Start lacks it.
	Table string `json:"table"`
	// Count is how many entities to generate; MaxGenerated bounds the sum
	// over a lesson's datasets.
	Count int `json:"count"`
	// Seed picks the pseudo-random numbers; the same seed gives the same entities.
	Seed uint64 `json:"seed"`
	// PartitionKey makes each entity's PartitionKey.
	PartitionKey Gen `json:"partitionKey"`
	// RowKey makes each entity's RowKey.
	RowKey Gen `json:"rowKey"`
	// Properties make the custom properties, in this order.
	Properties []GenProperty `json:"properties,omitempty"`
}

// GenProperty is a generated property: its name, Edm type and value.
type GenProperty struct {
	// Name is the property name.
	Name string `json:"name"`
	// Type is the full Edm type name, such as "Edm.Int32".
	Type string `json:"type"`
	Gen
}

// Gen makes one value per entity. The number n starts as the entity's index
// (From "index") or a pseudo-random number named by Stream (From "random";
// the same seed and stream give the same numbers in any dataset, so two
// tables can hold the same orders keyed differently); then n = n / Div % Mod
// + Add (Div and Mod apply when set). With Date set the value is that day
// plus n days (Format is a Go time layout, default 2006-01-02); otherwise it
// is fmt.Sprintf(Format, n) (a Format without a verb is used as it is).
type Gen struct {
	// Format turns n into the value: a Sprintf format, or with Date a time layout.
	Format string `json:"format"`
	// From is "index" or "random": where n starts.
	From string `json:"from"`
	// Stream names the random sequence when From is "random".
	Stream string `json:"stream,omitempty"`
	// Div divides n when set.
	Div int `json:"div,omitempty"`
	// Mod takes n modulo Mod when set.
	Mod int `json:"mod,omitempty"`
	// Add is added to n last.
	Add int `json:"add,omitempty"`
	// Date (YYYY-MM-DD), when set, makes the value a date n days after it.
	Date string `json:"date,omitempty"`
}

// check reports what makes a generator unusable.
func (g Gen) check() error {
	switch g.From {
	case "index", "random":
	default:
		return fmt.Errorf("from must be \"index\" or \"random\", not %q", g.From)
	}
	if len(g.Format) > MaxFormat || len(g.Stream) > MaxFormat {
		return fmt.Errorf("format and stream are at most %d bytes", MaxFormat)
	}
	if g.Div < 0 || g.Mod < 0 {
		return fmt.Errorf("div and mod must not be negative")
	}
	if g.Date != "" {
		if _, err := time.Parse("2006-01-02", g.Date); err != nil {
			return fmt.Errorf("date %q: want YYYY-MM-DD", g.Date)
		}
	} else if g.Format == "" {
		return fmt.Errorf("format is required")
	}
	return nil
}

// value is the generator's text for entity i of a dataset seeded with seed.
func (g Gen) value(seed uint64, i int) string {
	n := uint64(i)
	if g.From == "random" {
		n = mix(seed, g.Stream, uint64(i))
	}
	if g.Div > 0 {
		n /= uint64(g.Div)
	}
	if g.Mod > 0 {
		n %= uint64(g.Mod)
	}
	v := int64(n) + int64(g.Add)
	if g.Date != "" {
		day, _ := time.Parse("2006-01-02", g.Date)
		layout := g.Format
		if layout == "" {
			layout = "2006-01-02"
		}
		return day.AddDate(0, 0, int(v)).Format(layout)
	}
	if !strings.Contains(g.Format, "%") {
		return g.Format // a constant, such as one PartitionKey for all
	}
	return fmt.Sprintf(g.Format, v)
}

// mix is a stateless pseudo-random number for (seed, stream, i): splitmix64
// over the three, kept below 2^62 so the arithmetic stays non-negative.
func mix(seed uint64, stream string, i uint64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(stream))
	z := seed ^ h.Sum64() ^ (i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return (z ^ (z >> 31)) >> 2
}
