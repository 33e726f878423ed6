package adjlist_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// labEmployee is the DynamoDB labs' employees design's employee item:
// PK "e#{employeeid}", SK "root", is_manager "1" on managers only.
type labEmployee struct {
	Name      string `dynamodbav:"name"`
	Title     string `dynamodbav:"title"`
	IsManager string `dynamodbav:"is_manager,omitempty"`
}

// labOffice is another item type of the table that carries is_manager
// too, so that a filter on it alone would match it.
type labOffice struct {
	IsManager string `dynamodbav:"is_manager,omitempty"`
}

// scanCounter counts the Scan requests and the items they read.
type scanCounter struct {
	dynamodb.ScanAPIClient
	mu                sync.Mutex
	requests, scanned int
	filters           []string
}

func (c *scanCounter) Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := c.ScanAPIClient.Scan(ctx, in, optFns...)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if in.FilterExpression != nil {
		c.filters = append(c.filters, *in.FilterExpression)
	}
	if out != nil {
		c.scanned += int(out.ScannedCount)
	}
	return out, err
}

// The labs' scan_for_managers is one Scan: ScanOptions.Filter on
// is_manager, with AND to the item type's key filter when the walk is of
// one type, alone on a walk of the whole table.
func TestScanFilter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	employees := adjlist.NewEntity[labEmployee](table, "employee", "e#{employeeid}", "root")
	offices := adjlist.NewEntity[labOffice](table, "office", "o#{officeid}", "root")
	require.NoError(t, table.Check())
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())

	var managers []string
	for i := range 25 {
		e := labEmployee{Name: fmt.Sprintf("emp %d", i), Title: "Engineer"}
		if i%5 == 0 {
			e.IsManager, e.Title = "1", "Manager"
			managers = append(managers, fmt.Sprint(i))
		}
		require.NoError(t, employees.Put(ctx, adjlist.IDs{fmt.Sprint(i)}, e))
	}
	require.NoError(t, offices.Put(ctx, adjlist.IDs{"hq"}, labOffice{IsManager: "1"}))
	isManager := expression.Name("is_manager").Equal(expression.Value("1"))
	sort.Strings(managers)

	t.Run("one item type", func(t *testing.T) {
		c := &scanCounter{ScanAPIClient: db}
		var mu sync.Mutex
		var got []string
		var last adjlist.ScanProgress
		pos, err := adjlist.Scan(ctx, c, employees, func(_ context.Context, e adjlist.EntityItem[labEmployee]) error {
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, "1", e.Data.IsManager)
			got = append(got, e.IDs[0])
			return nil
		}, func(o *adjlist.ScanOptions) {
			o.Filter = isManager
			o.Progress = func(p adjlist.ScanProgress) { last = p }
		})
		require.NoError(t, err)
		assert.Empty(t, pos)
		sort.Strings(got)
		assert.Equal(t, managers, got, "the managers, not the office that has is_manager too")
		assert.Equal(t, 1, c.requests, "one Scan")
		require.Len(t, c.filters, 1)
		assert.Contains(t, c.filters[0], " AND ", "the key filter and the caller's, both")
		assert.Equal(t, 26, c.scanned, "the filter is applied after the read")
		assert.Equal(t, 26, last.Scanned)
		assert.Equal(t, len(managers), last.Matched)
	})

	t.Run("the whole table", func(t *testing.T) {
		c := &scanCounter{ScanAPIClient: db}
		var mu sync.Mutex
		types := map[string]int{}
		_, err := adjlist.Scan(ctx, c, table, func(_ context.Context, it adjlist.TypedItem) error {
			mu.Lock()
			defer mu.Unlock()
			types[it.Type]++
			return nil
		}, func(o *adjlist.ScanOptions) { o.Filter = isManager })
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"entity employee": len(managers), "entity office": 1}, types)
		assert.Equal(t, 1, c.requests)
	})

	t.Run("Limit counts the items evaluated", func(t *testing.T) {
		c := &scanCounter{ScanAPIClient: db}
		n := 0
		_, err := adjlist.Scan(ctx, c, employees, func(context.Context, adjlist.EntityItem[labEmployee]) error {
			n++
			return nil
		}, func(o *adjlist.ScanOptions) { o.Filter, o.Limit = isManager, 2 })
		require.NoError(t, err)
		assert.Equal(t, len(managers), n)
		assert.Equal(t, 14, c.requests, "26 items read 2 at a time: 13 pages and the empty last")
	})

	// Refused before any request.
	c := &scanCounter{ScanAPIClient: db}
	for name, call := range map[string]func() error{
		"a filter that does not build": func() error {
			_, err := adjlist.Scan(ctx, c, employees, func(context.Context, adjlist.EntityItem[labEmployee]) error { return nil },
				func(o *adjlist.ScanOptions) { o.Filter = expression.Name("").Equal(expression.Value("1")) })
			return err
		},
		"Migrate": func() error {
			_, err := adjlist.Migrate(ctx, db, employees, func(o *adjlist.ScanOptions) { o.Filter = isManager })
			return err
		},
		"Verify": func() error {
			_, err := adjlist.Verify(ctx, c, table, func(o *adjlist.ScanOptions) { o.Filter = isManager })
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var opErr *adjlist.OpError
			require.ErrorAs(t, err, &opErr)
		})
	}
	assert.Zero(t, c.requests)
}
