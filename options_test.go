package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/workbench"
)

// adminClient is a Client whose every request panics.
type adminClient struct{ adjlist.Client }

// A nil option function is ErrInvalidOption before any request on every
// call that takes options, and is recorded by every constructor, as the
// package doc's Options section says; it never panics.
func TestNilOptionFunction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{Client: noScanClient{}} // any request would panic
	table := adjlist.NewTable(calls, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Node.Get", func() error { _, err := students.Get(ctx, "a91", nil); return err }},
		{"Node.Put", func() error { return students.Put(ctx, "a91", Student{}, nil) }},
		{"Node.Replace", func() error { return students.Replace(ctx, "a91", Student{}, nil) }},
		{"Node.Delete", func() error { return students.Delete(ctx, "a91", nil) }},
		{"Node.GetMany", func() error { _, err := students.GetMany(ctx, []string{"a91"}, nil); return err }},
		{"Edge.Get", func() error { _, err := enrolled.Get(ctx, "a91", "math204", nil); return err }},
		{"Edge.Put", func() error { return enrolled.Put(ctx, "a91", "math204", Enrollment{}, nil) }},
		{"Edge.Update", func() error {
			_, err := enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A"), nil)
			return err
		}},
		{"Edge.PutMany", func() error {
			_, err := enrolled.PutMany(ctx, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}, nil)
			return err
		}},
		{"LoadNode", func() error { _, err := adjlist.LoadNode(ctx, students, enrolled, "a91", nil); return err }},
		{"TwoHop", func() error { _, err := adjlist.TwoHop(ctx, enrolled, enrolled, "a91", 10, nil); return err }},
		{"Tx.Commit", func() error {
			tx := adjlist.NewTx(table)
			enrolled.Put(ctx, "a91", "math204", Enrollment{}, adjlist.InTx(tx))
			return tx.Commit(ctx, nil)
		}},
		{"CreateTable", func() error { return adjlist.CreateTable(ctx, adminClient{}, table, nil) }},
		{"workbench.New", func() error { _, err := workbench.New(m, nil); return err }},
		{"cloudformation.NewTemplate", func() error { _, err := cloudformation.NewTemplate(m, nil); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.ErrorIs(t, c.call(), adjlist.ErrInvalidOption)
			assert.Zero(t, calls.total()+calls.batchGets.Load(), "no request sent")
		})
	}

	t.Run("constructors", func(t *testing.T) {
		bad := adjlist.NewTable(calls, "bad", nil)
		require.ErrorIs(t, bad.Check(), adjlist.ErrInvalidOption)
		_, err := adjlist.NewNode[Student](bad, "STU", "PROFILE").Get(ctx, "a91")
		require.ErrorIs(t, err, adjlist.ErrInvalidOption)

		tbl := adjlist.NewTable(calls, "handles")
		stu := adjlist.NewNode[Student](tbl, "STU", "PROFILE", nil)
		crs := adjlist.NewNode[Course](tbl, "CRS", "METADATA")
		edge := adjlist.NewEdge[Enrollment](crs, "HAS", crs, nil)
		coll := adjlist.NewCollection[Course](crs, "SECTION", nil)
		ent := adjlist.NewEntity[Course](tbl, "course", "c#{id}", "info", nil)
		require.ErrorIs(t, tbl.Check(), adjlist.ErrInvalidOption)
		for _, err := range []error{
			func() error { _, err := stu.Get(ctx, "a91"); return err }(),
			func() error { _, err := edge.Get(ctx, "a", "b"); return err }(),
			func() error { _, err := coll.Get(ctx, "a", "b"); return err }(),
			func() error { _, err := ent.Get(ctx, adjlist.IDs{"a"}); return err }(),
		} {
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		}
		assert.Zero(t, calls.total()+calls.batchGets.Load(), "no request sent")
	})
}

// A table whose encoder and decoder read different struct tags would write
// attributes its reads do not fill: every call fails with ErrInvalidOption
// before any request, whichever side sets the other tag key.
func TestTagKeysMustAgree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	jsonEnc := func(eo *attributevalue.EncoderOptions) { eo.TagKey = "json" }
	jsonDec := func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
	useNumber := func(do *attributevalue.DecoderOptions) { do.UseNumber = true }
	for _, tc := range []struct {
		name string
		opts func(*adjlist.Options)
		ok   bool
	}{
		{"encoder json alone", func(o *adjlist.Options) { o.EncoderOptions = jsonEnc }, false},
		{"decoder json alone", func(o *adjlist.Options) { o.DecoderOptions = jsonDec }, false},
		{"encoder json, decoder without a tag key", func(o *adjlist.Options) { o.EncoderOptions, o.DecoderOptions = jsonEnc, useNumber }, false},
		{"both json", func(o *adjlist.Options) { o.EncoderOptions, o.DecoderOptions = jsonEnc, jsonDec }, true},
		{"decoder options without a tag key", func(o *adjlist.Options) { o.DecoderOptions = useNumber }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := &countingClient{Client: noScanClient{}} // any request would panic
			table := adjlist.NewTable(calls, "t", tc.opts)
			students := adjlist.NewNode[Student](table, "STU", "PROFILE")
			if tc.ok {
				require.NoError(t, table.Check())
				return
			}
			require.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
			require.ErrorIs(t, students.Put(ctx, "s1", Student{Name: "Ada"}), adjlist.ErrInvalidOption)
			_, err := students.Get(ctx, "s1")
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Zero(t, calls.total())
		})
	}
}
