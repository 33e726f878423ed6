package adjlist_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

type typesS = types.AttributeValueMemberS

// datedLine keeps its date only inside keys (EntityOptions.KeyOnly).
type datedLine struct {
	Order string `dynamodbav:"order"`
	Line  string `dynamodbav:"line"`
	Date  string `dynamodbav:"date"`
	Qty   int    `dynamodbav:"qty"`
}

// lineLayout is one declaration of order lines: table keys pk and sk,
// and sort keys gsi1 and gsi2 ("" for none) of GSI1 and GSI2, whose
// partition keys are "LINES".
type lineLayout struct{ pk, sk, gsi1, gsi2 string }

func (l lineLayout) declare(db adjlist.Client, name string) (*adjlist.Table, *adjlist.Entity[datedLine]) {
	table := adjlist.NewTable(db, name, func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}, {Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	lines := adjlist.NewEntity[datedLine](table, "line", l.pk, l.sk, func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"date"}
		if l.gsi1 != "" {
			o.Indexes = append(o.Indexes, adjlist.IndexKeys{Index: "GSI1", PartitionKey: adjlist.Template("LINES"), SortKey: adjlist.Template(l.gsi1)})
		}
		if l.gsi2 != "" {
			o.Indexes = append(o.Indexes, adjlist.IndexKeys{Index: "GSI2", PartitionKey: adjlist.Template("LINES"), SortKey: adjlist.Template(l.gsi2)})
		}
	})
	return table, lines
}

// TestMigrateNeverDropsAKeyOnlyValue: after a change of the template of
// a key that holds a value kept only inside keys, Migrate either
// rewrites every key with the value (read from a key it can still parse:
// the table keys, or another index key) or, when no key it can parse
// holds it, leaves the item exactly as it was and fails with an
// [adjlist.KeyError] naming the key, its value and the template, in an
// [adjlist.OpError] naming the item's keys: never a
// key written, or removed, without the value.
func TestMigrateNeverDropsAKeyOnlyValue(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	line := datedLine{Order: "o1", Line: "l1", Date: "2026-01-01", Qty: 2}
	for _, c := range []struct {
		name     string
		old, new lineLayout
		// stored is the item the old handle writes; want the item after
		// Migrate with the new one (stored when it refuses).
		stored, want adjlist.Item
		// refused is the key attribute Migrate cannot read the value from,
		// "" when it migrates the item.
		refused string
	}{
		{
			name:   "index sort key holds the value alone",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "D#{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01")},
			// Before: the UpdateItem REMOVEd GSI1SK, and the date with it.
			refused: "GSI1SK",
		},
		{
			name:   "index sort key after another value",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{order}#{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "O#{order}#{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("o1#2026-01-01")},
			// Before: the UpdateItem REMOVEd GSI1SK, and the date with it.
			refused: "GSI1SK",
		},
		{
			name:   "a prefix removed",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "D#{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("D#2026-01-01")},
			// Before: the UpdateItem REMOVEd GSI1SK, and the date with it.
			refused: "GSI1SK",
		},
		{
			name:   "two index keys, the first changed",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}", gsi2: "{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "D#{date}", gsi2: "{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01"), "GSI2PK": av("LINES"), "GSI2SK": av("2026-01-01")},
			// Before: the UpdateItem REMOVEd GSI1SK and GSI2SK, and the
			// date with them, though GSI2SK's template had not changed.
			want: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("D#2026-01-01"), "GSI2PK": av("LINES"), "GSI2SK": av("2026-01-01")},
		},
		{
			name:   "two index keys, the second changed",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}", gsi2: "{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}", gsi2: "D#{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01"), "GSI2PK": av("LINES"), "GSI2SK": av("2026-01-01")},
			want:   adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01"), "GSI2PK": av("LINES"), "GSI2SK": av("D#2026-01-01")},
		},
		{
			name:    "two index keys, both changed",
			old:     lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "{date}", gsi2: "{date}"},
			new:     lineLayout{pk: "o#{order}", sk: "l#{line}", gsi1: "D#{date}", gsi2: "E#{date}"},
			stored:  adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01"), "GSI2PK": av("LINES"), "GSI2SK": av("2026-01-01")},
			refused: "GSI1SK",
		},
		{
			name:   "table sort key holds the value, the index key changed",
			old:    lineLayout{pk: "o#{order}", sk: "l#{line}#{date}", gsi1: "{date}"},
			new:    lineLayout{pk: "o#{order}", sk: "l#{line}#{date}", gsi1: "D#{date}"},
			stored: adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1#2026-01-01"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("2026-01-01")},
			want:   adjlist.Item{"PK": av("o#o1"), "SK": av("l#l1#2026-01-01"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}, "GSI1PK": av("LINES"), "GSI1SK": av("D#2026-01-01")},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			name := ddbtest.TableName(t)
			oldTable, oldLines := c.old.declare(db, name)
			ddbtest.CreateTable(t, oldTable)
			require.NoError(t, oldTable.Check())
			require.NoError(t, oldLines.Put(ctx, nil, line))
			key := adjlist.Item{"PK": c.stored["PK"], "SK": c.stored["SK"]}
			raw := func() adjlist.Item {
				out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: key, ConsistentRead: aws.Bool(true)})
				require.NoError(t, err)
				return out.Item
			}
			require.Equal(t, c.stored, raw(), "the date only inside keys")

			newTable, newLines := c.new.declare(db, name)
			require.NoError(t, newTable.Check())
			if c.refused != "" {
				// Another line, written through the new handle, lacks its
				// GSI1PK: Migrate gives it back, past the one it leaves.
				require.NoError(t, newLines.Put(ctx, nil, datedLine{Order: "o2", Line: "l1", Date: "2026-01-02", Qty: 1}))
				_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: adjlist.Item{"PK": av("o#o2"), "SK": av("l#l1")},
					UpdateExpression: aws.String("REMOVE GSI1PK")})
				require.NoError(t, err)
			}
			res, err := adjlist.Migrate(ctx, db, newLines)
			if c.refused == "" {
				require.NoError(t, err)
				assert.Equal(t, 1, res.Rewritten)
				assert.Equal(t, c.want, raw())
				got, err := newLines.Get(ctx, adjlist.IDs{"o1", "l1"}, adjlist.Consistent)
				if c.new.sk == "l#{line}#{date}" {
					got, err = newLines.Get(ctx, adjlist.IDs{"o1", "l1", "2026-01-01"}, adjlist.Consistent)
				}
				require.NoError(t, err)
				assert.Equal(t, line, got, "the new handle reads the date")
				again, err := adjlist.Migrate(ctx, db, newLines)
				require.NoError(t, err)
				assert.Zero(t, again.Rewritten, "a second run rewrites nothing")
				return
			}
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			want := adjlist.KeyError{Name: c.refused, ID: c.stored[c.refused].(*typesS).Value,
				Reason: "date is kept only inside this key, which its template " + strings.NewReplacer("{", "<", "}", ">").Replace(c.new.gsi1) + " cannot parse back: rewriting the key would lose date"}
			var ko *adjlist.KeyError
			require.ErrorAs(t, err, &ko)
			assert.Equal(t, want, *ko)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, adjlist.OpError{Op: "Migrate", Table: name, PK: "o#o1", SK: "l#l1", Err: ko}, *op)
			assert.Equal(t, adjlist.MigrateResult{Scanned: 2, Matched: 2, Rewritten: 1, Unread: []adjlist.Key{{PK: "o#o1", SK: "l#l1"}}}, res,
				"the other line rewritten, the walk completed")
			assert.Equal(t, c.stored, raw(), "the item is left as it was")

			// Verify reports the item as undecodable, and Repair leaves it.
			v, err := adjlist.Verify(ctx, db, newTable)
			require.NoError(t, err)
			require.Len(t, v.Findings, 1)
			assert.Equal(t, adjlist.FindingUndecodable, v.Findings[0].Kind)
			require.ErrorAs(t, v.Findings[0].Err, &ko)
			assert.Equal(t, want, *ko)
			rep, err := adjlist.Repair(ctx, db, newTable, v.Findings)
			require.NoError(t, err)
			assert.Len(t, rep.Left, 1)
			assert.Equal(t, c.stored, raw(), "Repair leaves it too")
			again, err := adjlist.Migrate(ctx, db, newLines)
			require.ErrorAs(t, err, &ko)
			assert.Equal(t, []adjlist.Key{{PK: "o#o1", SK: "l#l1"}}, again.Unread, "reported again until resolved")
			assert.Equal(t, c.stored, raw())

			// The new handle cannot read the item without losing the
			// value, so it does not read it: Get and List fail, so that a
			// Get then Replace cannot write the key without the date.
			_, err = newLines.Get(ctx, adjlist.IDs{"o1", "l1"}, adjlist.Consistent)
			require.ErrorAs(t, err, &ko)
			assert.Equal(t, want, *ko)
			_, err = newLines.List("o1").Collect(ctx, adjlist.Consistent)
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			assert.Equal(t, c.stored, raw())

			// The remedy: read the value through the old handle, and
			// write the item through the new one.
			v1, err := oldLines.Get(ctx, adjlist.IDs{"o1", "l1"}, adjlist.Consistent)
			require.NoError(t, err)
			require.Equal(t, line, v1)
			require.NoError(t, newLines.Replace(ctx, nil, v1))
			res, err = adjlist.Migrate(ctx, db, newLines)
			require.NoError(t, err)
			assert.Zero(t, res.Rewritten)
			got, err := newLines.Get(ctx, adjlist.IDs{"o1", "l1"}, adjlist.Consistent)
			require.NoError(t, err)
			assert.Equal(t, line, got)
		})
	}
}

// TestMigrateLeavesAKeyOnlyValueInAnOldTableKey: Migrate never changes an
// entity's table keys. After a change of the template of a table key
// that holds a value kept only inside keys, the items written under the
// old one are not of the type: Migrate passes over them (it does not
// count them in Matched) and leaves them, and the value, as they are;
// Verify reports them as unknown items.
func TestMigrateLeavesAKeyOnlyValueInAnOldTableKey(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	name := ddbtest.TableName(t)
	oldTable, oldLines := lineLayout{pk: "o#{order}", sk: "d#{date}#{line}"}.declare(db, name)
	ddbtest.CreateTable(t, oldTable)
	require.NoError(t, oldTable.Check())
	require.NoError(t, oldLines.Put(ctx, nil, datedLine{Order: "o1", Line: "l1", Date: "2026-01-01", Qty: 2}))
	stored := adjlist.Item{"PK": av("o#o1"), "SK": av("d#2026-01-01#l1"), "order": av("o1"), "line": av("l1"), "qty": &typesN{Value: "2"}}
	raw := func() adjlist.Item {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true),
			Key: adjlist.Item{"PK": stored["PK"], "SK": stored["SK"]}})
		require.NoError(t, err)
		return out.Item
	}
	require.Equal(t, stored, raw())

	newTable, newLines := lineLayout{pk: "o#{order}", sk: "D#{date}#{line}", gsi1: "{date}"}.declare(db, name)
	require.NoError(t, newTable.Check())
	res, err := adjlist.Migrate(ctx, db, newLines)
	require.NoError(t, err)
	assert.Equal(t, adjlist.MigrateResult{Scanned: 1}, res)
	assert.Equal(t, stored, raw(), "left as it was")
	v, err := adjlist.Verify(ctx, db, newTable)
	require.NoError(t, err)
	require.Len(t, v.Findings, 1)
	assert.Equal(t, adjlist.FindingUnknownItem, v.Findings[0].Kind)
}
