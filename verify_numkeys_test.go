package adjlist_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// keyTypeClient passes every request on and notes each key attribute it
// sends (Key, Item, ExclusiveStartKey) whose type is not the table's.
type keyTypeClient struct {
	adjlist.Client
	types map[string]string // key attribute → "S" or "N"
	mu    sync.Mutex
	bad   []string
}

func (c *keyTypeClient) check(op string, item map[string]types.AttributeValue) {
	for name, want := range c.types {
		av, ok := item[name]
		if !ok {
			continue
		}
		have := "other"
		switch av.(type) {
		case *types.AttributeValueMemberS:
			have = "S"
		case *types.AttributeValueMemberN:
			have = "N"
		}
		if have != want {
			c.mu.Lock()
			c.bad = append(c.bad, fmt.Sprintf("%s: %s is %s, want %s", op, name, have, want))
			c.mu.Unlock()
		}
	}
}

func (c *keyTypeClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.check("GetItem", in.Key)
	return c.Client.GetItem(ctx, in, o...)
}

func (c *keyTypeClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.check("PutItem", in.Item)
	return c.Client.PutItem(ctx, in, o...)
}

func (c *keyTypeClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.check("UpdateItem", in.Key)
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *keyTypeClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.check("DeleteItem", in.Key)
	return c.Client.DeleteItem(ctx, in, o...)
}

func (c *keyTypeClient) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.check("Scan", in.ExclusiveStartKey)
	return c.Client.Scan(ctx, in, o...)
}

func (c *keyTypeClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	for _, ka := range in.RequestItems {
		for _, k := range ka.Keys {
			c.check("BatchGetItem", k)
		}
	}
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *keyTypeClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		switch {
		case it.Put != nil:
			c.check("TransactWriteItems Put", it.Put.Item)
		case it.Update != nil:
			c.check("TransactWriteItems Update", it.Update.Key)
		case it.Delete != nil:
			c.check("TransactWriteItems Delete", it.Delete.Key)
		case it.ConditionCheck != nil:
			c.check("TransactWriteItems ConditionCheck", it.ConditionCheck.Key)
		}
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// Verify, then Repair, on tables whose partition key, sort key or both are
// numbers (N): every finding an entity item can show there is reported
// (confirmed by a read keyed as the table is), Repair fixes what it can
// derive or was asked to delete, a second Verify finds only what Repair
// leaves, and every key the walk, the reads and the writes sent is of the
// table's type. Verify pages (Limit 2), so it resumes from number keys too.
func TestVerifyRepairNumberKeys(t *testing.T) {
	t.Parallel()
	type Rec struct {
		A      int64  `dynamodbav:"a"`
		B      int64  `dynamodbav:"b"`
		Group  string `dynamodbav:"group"`
		Status string `dynamodbav:"status"`
		Size   int64  `dynamodbav:"size"`
		Ver    int64  `dynamodbav:"ver"`
		TTL    int64  `dynamodbav:"ttl,omitempty"`
	}
	for _, tc := range []struct {
		name       string
		pk, sk     string // key attributes
		pkN, skN   bool   // which are numbers
		pkT, skT   string // the entity's templates
		key        func(a, b int64) (pk, sk string)
		unknownKey []string // an item of no type: its pk and sk text; nil if every key is some rec's
	}{
		{"number partition key", "id", "sk", true, false, "{a}", "rec#{b}",
			func(a, b int64) (string, string) { return strconv.FormatInt(a, 10), "rec#" + strconv.FormatInt(b, 10) },
			[]string{"5", "junk"}},
		{"number sort key", "pk", "v", false, true, "R#{a}", "{b}",
			func(a, b int64) (string, string) { return "R#" + strconv.FormatInt(a, 10), strconv.FormatInt(b, 10) },
			[]string{"JUNK", "5"}},
		{"number keys", "id", "v", true, true, "{a}", "{b}",
			func(a, b int64) (string, string) { return strconv.FormatInt(a, 10), strconv.FormatInt(b, 10) },
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			typ := func(n bool) (types.ScalarAttributeType, string) {
				if n {
					return types.ScalarAttributeTypeN, "N"
				}
				return types.ScalarAttributeTypeS, "S"
			}
			pkType, pkName := typ(tc.pkN)
			skType, skName := typ(tc.skN)
			db := ddbtest.Client(t)
			client := &keyTypeClient{Client: db, types: map[string]string{tc.pk: pkName, tc.sk: skName}}
			table := adjlist.NewTable(client, ddbtest.TableName(t), func(o *adjlist.Options) {
				o.PartitionKey, o.PartitionKeyType, o.SortKey, o.SortKeyType, o.NoIndex = tc.pk, pkType, tc.sk, skType, true
				o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
			})
			recs := adjlist.NewEntity[Rec](table, "rec", tc.pkT, tc.skT, func(o *adjlist.EntityOptions) {
				o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("G#{group}"), SortKey: adjlist.Template("S#{status}")}}
				o.Version, o.Expiry = "ver", "ttl"
			})
			require.NoError(t, table.Check())
			ctx := context.Background()
			require.NoError(t, adjlist.CreateTable(ctx, db, table))
			dropOnCleanup(t, db, table.Name())

			av := func(n bool, s string) types.AttributeValue {
				if n {
					return &types.AttributeValueMemberN{Value: s}
				}
				return &types.AttributeValueMemberS{Value: s}
			}
			keyOf := func(a, b int64) adjlist.Key {
				pk, sk := tc.key(a, b)
				return adjlist.Key{PK: pk, SK: sk}
			}
			for a := int64(1); a <= 3; a++ {
				for b := int64(1); b <= 3; b++ {
					status := "NEW"
					if a == 1 && b == 3 {
						status = "" // not in GSI1SK: a sparse key
					}
					require.NoError(t, recs.Put(ctx, nil, Rec{A: a, B: b, Group: "g", Status: status}))
				}
			}
			// damage sets attribute name of the rec at (a, b) to v (removes
			// it when v is nil), behind the library's back.
			damage := func(a, b int64, name string, v types.AttributeValue) {
				t.Helper()
				k := keyOf(a, b)
				in := &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()),
					Key:                      map[string]types.AttributeValue{tc.pk: av(tc.pkN, k.PK), tc.sk: av(tc.skN, k.SK)},
					UpdateExpression:         aws.String("REMOVE #a"),
					ExpressionAttributeNames: map[string]string{"#a": name}}
				if v != nil {
					in.UpdateExpression, in.ExpressionAttributeValues = aws.String("SET #a = :v"), map[string]types.AttributeValue{":v": v}
				}
				_, err := db.UpdateItem(ctx, in)
				require.NoError(t, err)
			}
			s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			damage(1, 1, "GSI1PK", nil)
			damage(1, 2, "GSI1SK", s("S#WRONG"))
			damage(1, 3, "GSI1SK", s("S#EXTRA"))
			damage(2, 1, "size", s("big"))
			damage(2, 2, "ver", s("x"))
			damage(2, 3, "ttl", s("2026-12-01"))
			damage(3, 1, "b", &types.AttributeValueMemberN{Value: "99"})
			damage(3, 2, "extra", s("x"))
			type kind struct {
				Kind string
				Key  adjlist.Key
			}
			repaired := []kind{
				{adjlist.FindingIndexKeyMissing, keyOf(1, 1)},
				{adjlist.FindingIndexKeyStale, keyOf(1, 2)},
				{adjlist.FindingIndexKeyExtra, keyOf(1, 3)},
				{adjlist.FindingUndecodable, keyOf(2, 1)},
			}
			left := []kind{
				{adjlist.FindingBadVersion, keyOf(2, 2)},
				{adjlist.FindingBadExpiry, keyOf(2, 3)},
				{adjlist.FindingKeyMismatch, keyOf(3, 1)},
				{adjlist.FindingUndeclaredAttribute, keyOf(3, 2)},
			}
			if u := tc.unknownKey; u != nil {
				_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()),
					Item: map[string]types.AttributeValue{tc.pk: av(tc.pkN, u[0]), tc.sk: av(tc.skN, u[1])}})
				require.NoError(t, err)
				repaired = append(repaired, kind{adjlist.FindingUnknownItem, adjlist.Key{PK: u[0], SK: u[1]}})
			}
			kinds := func(fs []adjlist.Finding) []kind {
				out := []kind{}
				for _, f := range fs {
					out = append(out, kind{f.Kind, f.Key})
				}
				slices.SortFunc(out, func(a, b kind) int {
					return cmp.Or(cmp.Compare(a.Key.PK, b.Key.PK), cmp.Compare(a.Key.SK, b.Key.SK), cmp.Compare(a.Kind, b.Kind))
				})
				return out
			}
			sorted := func(ks ...[]kind) []kind {
				var fs []adjlist.Finding
				for _, k := range slices.Concat(ks...) {
					fs = append(fs, adjlist.Finding{Kind: k.Kind, Key: k.Key})
				}
				return kinds(fs)
			}

			res, err := adjlist.Verify(ctx, client, table, func(o *adjlist.ScanOptions) { o.Segments, o.Limit = 1, 2 })
			require.NoError(t, err)
			require.Equal(t, sorted(repaired, left), kinds(res.Findings))

			rep, err := adjlist.Repair(ctx, client, table, res.Findings, func(o *adjlist.RepairOptions) {
				o.DeleteUnknown, o.DeleteUndecodable = true, true
			})
			require.NoError(t, err)
			assert.Equal(t, sorted(repaired), kinds(rep.Repaired))
			assert.Equal(t, sorted(left), kinds(rep.Left))
			assert.Empty(t, rep.Gone)

			again, err := adjlist.Verify(ctx, client, table)
			require.NoError(t, err)
			assert.Equal(t, sorted(left), kinds(again.Findings), "only what Repair leaves")
			got, err := recs.Get(ctx, adjlist.IDs{"1", "1"})
			require.NoError(t, err)
			assert.Equal(t, "g", got.Group)

			client.mu.Lock()
			defer client.mu.Unlock()
			assert.Empty(t, client.bad, "every key sent is of the table's type")
		})
	}
}
