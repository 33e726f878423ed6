package adjlist_test

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// putRecorder answers every PutItem with success and keeps the items.
type putRecorder struct {
	adjlist.Client // nil: any other request panics
	mu             sync.Mutex
	items          []map[string]types.AttributeValue
}

func (r *putRecorder) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, in.Item)
	return &dynamodb.PutItemOutput{}, nil
}

// TestTemplateReservedPlaceholders: {@self}, {@parent}, {@source} and
// {@target} write the node keys an item has (the bytes the removed
// SelfKey, ParentKey, SourceKey and TargetKey wrote), Describe shows them
// as the node keys' placeholders, and a placeholder the item type has not, or a
// misspelled one, is ErrInvalidOption before any request.
func TestTemplateReservedPlaceholders(t *testing.T) {
	t.Parallel()
	type data struct {
		Status string `dynamodbav:"status"`
	}
	cases := []struct {
		name, item, template string
		want, described      string // GSI2PK written; Describe's spelling
		err                  bool
	}{
		{name: "node self", item: "node", template: "X#{@self}", want: "X#STU#a%2391", described: "X#STU#<id>"},
		{name: "node self alone", item: "node", template: "{@self}", want: "STU#a%2391", described: "STU#<id>"},
		{name: "node self and attr", item: "node", template: "{@self}#{status}", want: "STU#a%2391#ON", described: "STU#<id>#<status>"},
		{name: "child self", item: "child", template: "{@self}", want: "PROJ#p1", described: "PROJ#<child>"},
		{name: "child parent", item: "child", template: "IN#{@parent}", want: "IN#WS#acme", described: "IN#WS#<id>"},
		{name: "edge self", item: "edge", template: "{@self}", want: "ENROLL#CRS#math204", described: "ENROLL#CRS#<to>"},
		{name: "edge source", item: "edge", template: "BY#{@source}", want: "BY#STU#a%2391", described: "BY#STU#<from>"},
		{name: "edge target", item: "edge", template: "{@target}", want: "CRS#math204", described: "CRS#<to>"},
		{name: "parent on a node", item: "node", template: "{@parent}", err: true},
		{name: "source on a node", item: "node", template: "{@source}", err: true},
		{name: "target on a child", item: "child", template: "{@target}", err: true},
		{name: "parent on an edge", item: "edge", template: "{@parent}", err: true},
		{name: "unknown", item: "node", template: "{@me}", err: true},
		{name: "upper case", item: "node", template: "{@SELF}", err: true},
		{name: "unclosed", item: "node", template: "{@self", err: true},
		{name: "two without text", item: "edge", template: "{@source}{@target}", err: true},
		{name: "no # between", item: "node", template: "{@self}-{status}", err: true},
		{name: "in a table key", item: "entity", template: "", err: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &putRecorder{}
			table := adjlist.NewTable(rec, "placeholders", func(o *adjlist.Options) {
				o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK"}}
			})
			keys := []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template(tc.template)}}
			ctx := context.Background()
			ws := adjlist.NewNode[data](table, "WS", "META")
			stu := adjlist.NewNode[data](table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
				if tc.item == "node" {
					o.Indexes = keys
				}
			})
			crs := adjlist.NewNode[data](table, "CRS", "METADATA")
			proj := adjlist.NewCollection[data](ws, "PROJ", func(o *adjlist.CollectionOptions) {
				if tc.item == "child" {
					o.Indexes = keys
				}
			})
			enroll := adjlist.NewEdge[data](stu, "ENROLL", crs, func(o *adjlist.EdgeOptions) {
				if tc.item == "edge" {
					o.Indexes = keys
				}
			})
			var err error
			switch tc.item {
			case "node":
				err = stu.Put(ctx, "a#91", data{Status: "ON"})
			case "child":
				err = proj.Put(ctx, "acme", "p1", data{Status: "ON"})
			case "edge":
				err = enroll.Put(ctx, "a#91", "math204", data{Status: "ON"})
			case "entity":
				e := adjlist.NewEntity[data](table, "user", "{@self}", "info")
				_, _, err = e.Key("1")
			}
			if tc.err {
				require.ErrorIs(t, err, adjlist.ErrInvalidOption)
				assert.Empty(t, rec.items, "no request")
				return
			}
			require.NoError(t, err)
			require.Len(t, rec.items, 1)
			require.IsType(t, &types.AttributeValueMemberS{}, rec.items[0]["GSI2PK"])
			assert.Equal(t, tc.want, rec.items[0]["GSI2PK"].(*types.AttributeValueMemberS).Value)

			m, err := adjlist.DescribeModel(table)
			require.NoError(t, err)
			var described []string
			for _, it := range m.Items {
				for _, ix := range it.Indexes {
					if ix.Index == "GSI2" {
						described = append(described, ix.PartitionKey)
					}
				}
			}
			assert.Equal(t, []string{tc.described}, described)
		})
	}
}
