package adjlist_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestVerifyBadExpiryEveryHandleKind: FindingBadExpiry is the expiry of
// every kind of item type with Tracking.Expiry (node, edge, collection
// child, entity) that is not a Number, or a Number that is no time in
// epoch seconds (negative, or past the last second of the year 9999);
// a time in seconds up to that second verifies clean, and Repair leaves
// the findings whatever its options.
func TestVerifyBadExpiryEveryHandleKind(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	tr := adjlist.Tracking{Expiry: "ttl"}
	authors := adjlist.NewNode[Student](s.table, "AUTH", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	likes := adjlist.NewEdge[Enrollment](authors, "LIKES", s.courses, func(o *adjlist.EdgeOptions) { o.Tracking = tr })
	drafts := adjlist.NewCollection[Ticket](authors, "DRAFT", func(o *adjlist.CollectionOptions) { o.Tracking = tr })
	notes := adjlist.NewEntity[Ticket](s.table, "note", "n#{noteID}", "note", func(o *adjlist.EntityOptions) { o.Tracking = tr })
	require.NoError(t, s.table.Check())
	soon := adjlist.Expires(time.Now().Add(time.Hour))
	require.NoError(t, authors.Put(ctx, "ada", Student{Name: "Ada"}, soon))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Algebra"}))
	require.NoError(t, likes.Put(ctx, "ada", "math204", Enrollment{}, soon))
	require.NoError(t, drafts.Put(ctx, "ada", "d1", Ticket{CreatedAt: "x"}, soon))
	require.NoError(t, notes.Put(ctx, adjlist.IDs{"n1"}, Ticket{CreatedAt: "y"}, soon))
	clean, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Empty(t, clean.Findings)

	// The keys of the items that hold an expiry, one per handle kind.
	out, err := s.db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(s.table.Name()), ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	var keys []adjlist.Key
	kinds := map[string]bool{}
	for _, item := range out.Items {
		if item["ttl"] != nil {
			keys = append(keys, adjlist.Key{PK: str(item["PK"]), SK: str(item["SK"])})
			typ, ok := s.table.TypeOf(item)
			require.True(t, ok)
			kinds[typ] = true
		}
	}
	require.Len(t, keys, 4)
	require.Len(t, kinds, 4, "one item of each handle kind")

	for _, c := range []struct {
		name string
		ttl  types.AttributeValue
		bad  bool
	}{
		{"negative", &types.AttributeValueMemberN{Value: "-1"}, true},
		{"the second after the year 9999", &types.AttributeValueMemberN{Value: "253402300800"}, true},
		{"milliseconds", &types.AttributeValueMemberN{Value: "1764000000000"}, true},
		{"a string", &types.AttributeValueMemberS{Value: "1764000000"}, true},
		{"a bool", &types.AttributeValueMemberBOOL{Value: true}, true},
		{"the last second of the year 9999", &types.AttributeValueMemberN{Value: "253402300799"}, false},
		{"the epoch", &types.AttributeValueMemberN{Value: "0"}, false},
		{"seconds", &types.AttributeValueMemberN{Value: "1764000000"}, false},
	} {
		for _, k := range keys {
			_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table.Name()),
				Key:                       adjlist.Item{"PK": av(k.PK), "SK": av(k.SK)},
				UpdateExpression:          aws.String("SET #t = :t"),
				ExpressionAttributeNames:  map[string]string{"#t": "ttl"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":t": c.ttl}})
			require.NoError(t, err)
		}
		res, err := adjlist.Verify(ctx, s.db, s.table)
		require.NoError(t, err, c.name)
		if !c.bad {
			assert.Empty(t, res.Findings, c.name)
			continue
		}
		require.Len(t, res.Findings, len(keys), c.name)
		var got []adjlist.Key
		for _, f := range res.Findings {
			assert.Equal(t, adjlist.FindingBadExpiry, f.Kind, c.name)
			assert.Equal(t, "ttl", f.Attribute, c.name)
			got = append(got, f.Key)
		}
		assert.ElementsMatch(t, keys, got, c.name)
		rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings, func(o *adjlist.RepairOptions) {
			o.DeleteUnknown, o.DeleteUndecodable, o.DeleteDangling = true, true, true
		})
		require.NoError(t, err, c.name)
		assert.Empty(t, rep.Repaired, c.name)
		assert.Len(t, rep.Left, len(keys), c.name)
	}
}

// TestReplaceKeepsExpiryOnlyWhenDeclared: a Replace with neither
// WriteOptions.ExpiresAt nor Tracking.Lifetime writes the expiry the data
// holds. A data type that declares the Expiry attribute keeps, on Get then
// Replace, the expiry stored; one that does not stores the item without
// one, as Tracking.Expiry's doc says.
func TestReplaceKeepsExpiryOnlyWhenDeclared(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	type withTTL struct {
		Name string `dynamodbav:"name"`
		TTL  int64  `dynamodbav:"ttl,omitempty"`
	}
	type withoutTTL struct {
		Name string `dynamodbav:"name"`
	}
	tr := adjlist.Tracking{Expiry: "ttl"}
	declared := adjlist.NewNode[withTTL](s.table, "DECL", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	undeclared := adjlist.NewNode[withoutTTL](s.table, "UNDECL", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	require.NoError(t, s.table.Check())
	at := time.Now().Add(time.Hour).Truncate(time.Second)
	stored := func(pk string) types.AttributeValue {
		out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table.Name()), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}}})
		require.NoError(t, err)
		require.NotNil(t, out.Item)
		return out.Item["ttl"]
	}
	want := &types.AttributeValueMemberN{Value: strconv.FormatInt(at.Unix(), 10)}

	require.NoError(t, declared.Put(ctx, "a", withTTL{Name: "Ada"}, adjlist.Expires(at)))
	v, err := declared.Get(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, at.Unix(), v.TTL, "the read fills the declared expiry")
	v.Name = "Ada L."
	require.NoError(t, declared.Replace(ctx, "a", v))
	assert.Equal(t, want, stored("DECL#a"), "declared: Replace keeps the expiry read")

	require.NoError(t, undeclared.Put(ctx, "a", withoutTTL{Name: "Ada"}, adjlist.Expires(at)))
	assert.Equal(t, want, stored("UNDECL#a"))
	w, err := undeclared.Get(ctx, "a")
	require.NoError(t, err)
	require.NoError(t, undeclared.Replace(ctx, "a", w))
	assert.Nil(t, stored("UNDECL#a"), "undeclared: Replace stores no expiry")
}
