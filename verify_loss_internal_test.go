package adjlist

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lossJSON is named differently under the default tag key and "json".
type lossJSON struct {
	A string `json:"a"`
	B string `json:"-" dynamodbav:"bb"`
	C string `dynamodbav:"cc" json:"c2"`
	D string `dynamodbav:"-" json:"d"`
	E string `dynamodbav:"e"`
}

// holdsOf adds to what the data type declares the table's keys, its
// derived index keys and what the handle tracks, by the table's encoder
// tag key; nil for a data type that holds everything.
func TestHoldsOf(t *testing.T) {
	tb := NewTable(nil, "t", func(o *Options) {
		o.Indexes = []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		o.EncoderOptions = func(e *attributevalue.EncoderOptions) { e.TagKey = "json" }
		o.DecoderOptions = func(d *attributevalue.DecoderOptions) { d.TagKey = "json" }
	})
	require.NoError(t, tb.Check())
	got := tb.holdsOf(reflect.TypeFor[lossJSON](), &tracking{ddbexpr.Tracking{Tracked: ddbexpr.Tracked{Version: "v", Expiry: "ttl"}}})
	want := []string{"GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "PK", "SK", "a", "c2", "d", "e", "ttl", "v"}
	assert.Equal(t, want, got.Names)
	assert.Equal(t, want, slices.Sorted(maps.Keys(got.Set)))
	assert.Zero(t, tb.holdsOf(reflect.TypeFor[map[string]any](), &tracking{}))
}
