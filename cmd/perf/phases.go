package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// phase is one kind of work: a table made ready (not measured), then ops
// operations shared among clients goroutines (measured).
type phase struct {
	name    string
	title   string
	clients int
	ops     int
	// setup fills the phase's table; it runs before the CPU clock starts.
	setup func(ctx context.Context, c *aztables.Client) error
	// op is operation i (0 ≤ i < ops).
	op func(ctx context.Context, c *aztables.Client, i int) error
}

// allPhases are the phases for n single-entity operations and c clients.
func allPhases(n, c int) []phase {
	return []phase{
		{name: "insert1", title: "insert, one client", clients: 1, ops: n, op: insertOp},
		{name: "insert16", title: fmt.Sprintf("insert, %d clients", c), clients: c, ops: n, op: insertOp},
		{name: "read16", title: fmt.Sprintf("point read, %d clients", c), clients: c, ops: n,
			setup: func(ctx context.Context, cl *aztables.Client) error { return fill(ctx, cl, 1, readRows, entity) },
			op:    readOp},
		{name: "query200", title: "partition query (200 rows)", clients: 1, ops: n / 5,
			setup: func(ctx context.Context, cl *aztables.Client) error {
				return fill(ctx, cl, queryPartitions, queryRows, entity)
			},
			op: queryOp},
		{name: "scan", title: "scan, filter (5,000 rows, 10 % match)", clients: 1, ops: n / 25,
			setup: func(ctx context.Context, cl *aztables.Client) error {
				return fill(ctx, cl, scanPartitions, scanRows/scanPartitions, grouped)
			},
			op: scanOp},
		{name: "batch100", title: "batch of 100 inserts", clients: 1, ops: n / 25, op: batchOp},
		{name: "merge16", title: fmt.Sprintf("upsert-merge, %d clients", c), clients: c, ops: n,
			setup: func(ctx context.Context, cl *aztables.Client) error { return fill(ctx, cl, 1, readRows, entity) },
			op:    mergeOp},
	}
}

func phaseNames() []string {
	var names []string
	for _, p := range allPhases(25, 1) {
		names = append(names, p.name)
	}
	return names
}

func knownPhase(name string) bool {
	for _, n := range phaseNames() {
		if n == name {
			return true
		}
	}
	return false
}

// The shapes of the prepared tables.
const (
	readRows        = 1000 // one partition, for point reads and merges
	queryPartitions = 10
	queryRows       = 200 // per partition
	scanRows        = 5000
	scanPartitions  = 50
	scanGroups      = 10 // Group = row % 10; the filter matches one group
	batchSize       = 100
)

// entity is a typical entity of ten properties across the Edm types.
func entity(pk, rk string, _ int) []byte {
	return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `","Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
		`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
		`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
}

// grouped is entity with a Group property for the scan's filter.
func grouped(pk, rk string, row int) []byte {
	return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `","Group":` + strconv.Itoa(row%scanGroups) +
		`,"Name":"Ada Lovelace","Email":"ada@example.com","Age":36,"Balance":1234.5,"Active":true,` +
		`"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.2924321Z","Visits@odata.type":"Edm.Int64","Visits":"9876543210",` +
		`"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-3e9149a57833","Notes":"likes engines"}`)
}

func rowKey(i int) string { return fmt.Sprintf("%08d", i) }

// fill inserts rows rows in each of partitions partitions ("p0", "p1", …)
// through transactions of up to 100.
func fill(ctx context.Context, c *aztables.Client, partitions, rows int, body func(pk, rk string, row int) []byte) error {
	row := 0
	for p := 0; p < partitions; p++ {
		pk := "p" + strconv.Itoa(p)
		for start := 0; start < rows; start += batchSize {
			var actions []aztables.TransactionAction
			for r := start; r < rows && r < start+batchSize; r++ {
				actions = append(actions, aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: body(pk, rowKey(r), row)})
				row++
			}
			if _, err := c.SubmitTransaction(ctx, actions, nil); err != nil {
				return fmt.Errorf("fill: %w", err)
			}
		}
	}
	return nil
}

func insertOp(ctx context.Context, c *aztables.Client, i int) error {
	_, err := c.AddEntity(ctx, entity("p", rowKey(i), i), nil)
	return err
}

func readOp(ctx context.Context, c *aztables.Client, i int) error {
	_, err := c.GetEntity(ctx, "p0", rowKey(i%readRows), nil)
	return err
}

// countPages reads every page of a query and returns how many entities came.
func countPages(ctx context.Context, c *aztables.Client, filter string) (int, error) {
	p := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr(filter)})
	n := 0
	for pages := 0; p.More(); pages++ {
		if pages > scanRows {
			return 0, fmt.Errorf("more pages than rows for %s", filter)
		}
		page, err := p.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		n += len(page.Entities)
	}
	return n, nil
}

func queryOp(ctx context.Context, c *aztables.Client, i int) error {
	n, err := countPages(ctx, c, "PartitionKey eq 'p"+strconv.Itoa(i%queryPartitions)+"'")
	if err == nil && n != queryRows {
		err = fmt.Errorf("partition query returned %d entities, want %d", n, queryRows)
	}
	return err
}

func scanOp(ctx context.Context, c *aztables.Client, i int) error {
	n, err := countPages(ctx, c, "Group eq "+strconv.Itoa(i%scanGroups))
	if err == nil && n != scanRows/scanGroups {
		err = fmt.Errorf("scan returned %d entities, want %d", n, scanRows/scanGroups)
	}
	return err
}

func batchOp(ctx context.Context, c *aztables.Client, i int) error {
	actions := make([]aztables.TransactionAction, batchSize)
	pk := "b" + strconv.Itoa(i)
	for r := range actions {
		actions[r] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: entity(pk, rowKey(r), r)}
	}
	_, err := c.SubmitTransaction(ctx, actions, nil)
	return err
}

func mergeOp(ctx context.Context, c *aztables.Client, i int) error {
	body := []byte(`{"PartitionKey":"p0","RowKey":"` + rowKey(i%readRows) + `","Visits@odata.type":"Edm.Int64","Visits":"` +
		strconv.Itoa(i) + `","Note":"merged"}`)
	_, err := c.UpsertEntity(ctx, body, &aztables.UpsertEntityOptions{UpdateMode: aztables.UpdateModeMerge})
	return err
}
