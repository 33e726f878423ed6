package walks

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

type item = map[string]types.AttributeValue

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// script answers each request with the next error of its kind (nil:
// success) and GetItem with the next item; it records the requests.
type script struct {
	updates, txs []error
	reads        []item
	got          []any
}

func (c *script) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.got = append(c.got, in)
	err := c.updates[0]
	c.updates = c.updates[1:]
	return &dynamodb.UpdateItemOutput{}, err
}

func (c *script) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.got = append(c.got, in)
	err := c.txs[0]
	c.txs = c.txs[1:]
	return &dynamodb.TransactWriteItemsOutput{}, err
}

func (c *script) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.got = append(c.got, in)
	it := c.reads[0]
	c.reads = c.reads[1:]
	return &dynamodb.GetItemOutput{Item: it}, nil
}

var errCCF = &types.ConditionalCheckFailedException{}

func cancelled(codes ...string) error {
	e := &types.TransactionCanceledException{}
	for _, c := range codes {
		e.CancellationReasons = append(e.CancellationReasons, types.CancellationReason{Code: aws.String(c)})
	}
	return e
}

// table judges errors as package adjlist does, for these tests.
func table(waits *[]int) *Table {
	return &Table{Name: "t", Keys: ddbitem.Keys{PartitionKey: "PK", SortKey: "SK"}, Enc: attributevalue.NewEncoder(),
		IsKey: func(name string) bool { return name == "PK" || name == "SK" || name == "GSI2PK" || name == "OLD" },
		Wait:  func(_ context.Context, attempt int) error { *waits = append(*waits, attempt); return nil },
		ConditionFailed: func(err error) bool {
			var ccf *types.ConditionalCheckFailedException
			return errors.As(err, &ccf)
		},
		Cancelled: func(err error) ([]string, bool) {
			var tce *types.TransactionCanceledException
			if !errors.As(err, &tce) {
				return nil, false
			}
			var codes []string
			for _, r := range tce.CancellationReasons {
				codes = append(codes, aws.ToString(r.Code))
			}
			return codes, true
		},
		Transient: func(code string) bool { return code == "" || code == "None" || code == "TransactionConflict" },
	}
}

// byName derives GSI2PK = "N#" + name for items with a name, and homes
// every item at "P#2".
func byName(home bool) *Spec {
	t := &Spec{Owned: []string{"GSI2PK"}, Foreign: []string{"OLD"}, Feeds: []string{"name"},
		Derive: func(it item, _ ddbitem.Attrs) (ddbitem.Attrs, bool, error) {
			if it["PK"] == nil {
				return nil, false, nil
			}
			n, ok := it["name"].(*types.AttributeValueMemberS)
			if !ok {
				return ddbitem.Attrs{}, true, nil
			}
			return ddbitem.Attrs{{Name: "GSI2PK", Value: "N#" + n.Value}}, true, nil
		}}
	if home {
		t.Home = func(item) (string, error) { return "P#2", nil }
	}
	return t
}

func TestMigrateRewritesInPlace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	stale := item{"PK": s("P#1"), "SK": s("A"), "name": s("ann"), "GSI2PK": s("N#old"), "OLD": s("x")}
	fresh := item{"PK": s("P#1"), "SK": s("A"), "name": s("bob"), "GSI2PK": s("N#old")}

	tests := []struct {
		name    string
		api     *script
		item    item
		want    MigrateOutcome
		wantErr bool
		sent    int
	}{
		{"not of the type", &script{}, item{"x": s("1")}, MigrateOutcome{}, false, 0},
		{"up to date", &script{}, item{"PK": s("P#1"), "SK": s("A"), "name": s("ann"), "GSI2PK": s("N#ann")}, MigrateOutcome{Matched: true}, false, 0},
		{"stale", &script{updates: []error{nil}}, stale, MigrateOutcome{Matched: true, Rewrote: true}, false, 1},
		{"changed, then rewritten", &script{updates: []error{errCCF, nil}, reads: []item{fresh}}, stale, MigrateOutcome{Matched: true, Rewrote: true, Retried: 1}, false, 3},
		{"deleted meanwhile", &script{updates: []error{errCCF}, reads: []item{nil}}, stale, MigrateOutcome{Matched: true, Retried: 1}, false, 2},
		{"another error", &script{updates: []error{errors.New("boom")}}, stale, MigrateOutcome{Matched: true}, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var waits []int
			got, err := table(&waits).Migrate(ctx, tt.api, byName(false), tt.item)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
			assert.Len(t, tt.api.got, tt.sent)
			assert.Empty(t, waits)
		})
	}

	api := &script{updates: []error{nil}}
	_, err := table(nil).Migrate(ctx, api, byName(false), stale)
	require.NoError(t, err)
	in := api.got[0].(*dynamodb.UpdateItemInput)
	assert.Equal(t, item{"PK": s("P#1"), "SK": s("A")}, in.Key)
	assert.Equal(t, "REMOVE #2\nSET #3 = :1\n", aws.ToString(in.UpdateExpression))
	assert.Equal(t, map[string]string{"#0": "PK", "#1": "name", "#2": "OLD", "#3": "GSI2PK"}, in.ExpressionAttributeNames)
	assert.Equal(t, "(attribute_exists (#0)) AND (#1 = :0)", aws.ToString(in.ConditionExpression), "the data as read")
	assert.Equal(t, item{":0": s("ann"), ":1": s("N#ann")}, in.ExpressionAttributeValues)
}

func TestMigrateKeepsRetryingUpToMaxAttempts(t *testing.T) {
	t.Parallel()
	api := &script{}
	stale := item{"PK": s("P#1"), "SK": s("A"), "name": s("ann")}
	for range MaxAttempts {
		api.updates = append(api.updates, errCCF)
		api.reads = append(api.reads, stale)
	}
	got, err := table(nil).Migrate(context.Background(), api, byName(false), stale)
	require.EqualError(t, err, `adjlist: item {P#1 A} changed on every one of 10 writes`, "names the item by its keys' text")
	assert.Equal(t, MaxAttempts, got.Retried)
	assert.Len(t, api.got, 2*MaxAttempts)
}

func TestMigrateMoves(t *testing.T) {
	t.Parallel()
	old := item{"PK": s("P#1"), "SK": s("A"), "name": s("ann"), "OLD": s("x")}
	tests := []struct {
		name    string
		txs     []error
		reads   []item
		want    MigrateOutcome
		waits   []int
		wantErr bool
	}{
		{"moved", []error{nil}, nil, MigrateOutcome{Matched: true, Moved: true}, nil, false},
		{"home taken", []error{cancelled("ConditionalCheckFailed", "None")}, nil,
			MigrateOutcome{Matched: true, Conflict: &Conflict{From: Key{PK: "P#1", SK: "A"}, To: Key{PK: "P#2", SK: "A"}}}, nil, false},
		{"changed, then moved", []error{cancelled("None", "ConditionalCheckFailed"), nil}, []item{old},
			MigrateOutcome{Matched: true, Moved: true, Retried: 1}, nil, false},
		{"busy, then moved", []error{cancelled("TransactionConflict", "None"), nil}, []item{old},
			MigrateOutcome{Matched: true, Moved: true, Retried: 1}, []int{1}, false},
		{"refused", []error{cancelled("ValidationError", "None")}, nil, MigrateOutcome{Matched: true}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var waits []int
			api := &script{txs: tt.txs, reads: tt.reads}
			got, err := table(&waits).Migrate(context.Background(), api, byName(true), old)
			if tt.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.waits, waits)
			tx := api.got[0].(*dynamodb.TransactWriteItemsInput)
			require.Len(t, tx.TransactItems, 2)
			assert.Equal(t, item{"PK": s("P#2"), "SK": s("A"), "name": s("ann"), "GSI2PK": s("N#ann")}, tx.TransactItems[0].Put.Item,
				"copied as read at its home, its derived keys computed, the foreign ones dropped")
			assert.Equal(t, "attribute_not_exists (#0)", aws.ToString(tx.TransactItems[0].Put.ConditionExpression))
			assert.Equal(t, item{"PK": s("P#1"), "SK": s("A")}, tx.TransactItems[1].Delete.Key)
		})
	}
}
