package ddbitem_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// The struct shapes attributevalue names fields of: tags, skipped and
// unexported fields, embedded structs (unexported, by pointer, twice at
// one depth), and names that hide each other.
type (
	lossInner struct {
		A string
		B string `dynamodbav:"b"`
	}
	lossOther struct {
		A string
		B string `dynamodbav:"b"`
	}
	lossTagged struct {
		W string `dynamodbav:"A"`
	}
	lossWrap1 struct{ lossInner }
	lossWrap2 struct{ lossInner }
	lossPlain struct {
		Name   string `dynamodbav:"name,omitempty"`
		Plain  int
		Skip   string `dynamodbav:"-"`
		Empty  string `dynamodbav:",omitempty"`
		hidden string
		Nested lossInner `dynamodbav:"nested"`
	}
	lossEmbedded struct {
		lossInner             // unexported type: its fields are promoted
		*lossTagged           // by pointer
		A           string    // hides lossInner.A
		Named       lossOther `dynamodbav:"named"` // a tag name: not flattened
	}
	lossConflict struct {
		lossInner // A and b at depth 1 ...
		lossOther // ... twice: both hidden
		Z         string
	}
	lossTagWins struct {
		lossOther  // A untagged at depth 1
		lossTagged // A tagged at depth 1: wins
	}
	lossTwice struct {
		lossWrap1 // lossInner at depth 2 ...
		lossWrap2 // ... twice: its names hide each other
		C         string
	}
	lossJSON struct {
		A string `json:"a"`
		B string `json:"-" dynamodbav:"bb"`
		C string `dynamodbav:"cc" json:"c2"`
		D string `dynamodbav:"-" json:"d"`
		E string `dynamodbav:"e"`
	}
	// lossSelf marshals itself: its attributes cannot be known.
	lossSelf struct{ A string }
	// cycleA and cycleB embed each other by pointer: each struct type is
	// walked once.
	cycleA struct {
		*cycleB
		X string `dynamodbav:"x"`
	}
	cycleB struct {
		*cycleA
		Y string `dynamodbav:"y"`
	}
)

func (*lossSelf) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}, nil
}

func names(attrs []ddbitem.GoAttr) []string {
	var out []string
	for _, a := range attrs {
		out = append(out, a.Name)
	}
	return out
}

// Of names the attributes attributevalue's encoder writes for a value
// whose every field is set, under the default tag key and a custom one,
// in field order; maps, interfaces and types that marshal themselves
// hold every attribute.
func TestOf(t *testing.T) {
	in := lossInner{A: "a", B: "b"}
	for _, c := range []struct {
		name   string
		v      any
		tagKey string
		want   []string // in field order
	}{
		{"tags, skips, nesting", lossPlain{Name: "n", Plain: 1, Skip: "s", Empty: "e", hidden: "h", Nested: in}, "", []string{"name", "Plain", "Empty", "nested"}},
		{"embedded", lossEmbedded{lossInner: in, lossTagged: &lossTagged{W: "w"}, A: "a", Named: lossOther(in)}, "", []string{"b", "A", "named"}},
		{"the same names at one depth", lossConflict{lossInner: in, lossOther: lossOther(in), Z: "z"}, "", []string{"Z"}},
		{"a tag wins at its depth", lossTagWins{lossOther: lossOther(in), lossTagged: lossTagged{W: "w"}}, "", []string{"b", "A"}},
		{"one type embedded twice", lossTwice{lossWrap1: lossWrap1{in}, lossWrap2: lossWrap2{in}, C: "c"}, "", []string{"C"}},
		{"pointer", &lossPlain{Name: "n", Plain: 1, Empty: "e", Nested: in}, "", []string{"name", "Plain", "Empty", "nested"}},
		{"default tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, "", []string{"A", "bb", "cc", "e"}},
		{"json tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, "json", []string{"a", "c2", "d", "e"}},
		{"dynamodbav tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, ddbitem.DefaultTagKey, []string{"A", "bb", "cc", "e"}},
		{"embedded in a cycle", cycleA{cycleB: &cycleB{Y: "y"}, X: "x"}, "", []string{"y", "x"}},
		{"empty struct", struct{}{}, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			attrs, open := ddbitem.Of(reflect.TypeOf(c.v), c.tagKey)
			require.False(t, open)
			assert.Equal(t, c.want, names(attrs))

			enc := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
				if c.tagKey != "" {
					o.TagKey = c.tagKey
				}
			})
			av, err := enc.Encode(c.v)
			require.NoError(t, err)
			m, ok := av.(*types.AttributeValueMemberM)
			require.True(t, ok)
			var written []string
			for name := range m.Value {
				written = append(written, name)
			}
			assert.ElementsMatch(t, c.want, written, "what attributevalue writes")
		})
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[map[string]any](), reflect.TypeFor[map[string]types.AttributeValue](), reflect.TypeFor[*map[string]int](),
		reflect.TypeFor[any](),
	} {
		attrs, open := ddbitem.Of(typ, "")
		assert.True(t, open, "%v holds every attribute", typ)
		assert.Nil(t, attrs)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[lossSelf](), reflect.TypeFor[*lossSelf]()} {
		attrs, open := ddbitem.Of(typ, "")
		assert.True(t, open, "%v holds every attribute", typ)
		assert.Equal(t, []string{"A"}, names(attrs), "its fields, listed all the same")
	}
	attrs, open := ddbitem.Of(reflect.TypeFor[[]string](), "")
	assert.False(t, open)
	assert.Nil(t, attrs, "not a struct: no attributes")
}

// Each attribute's DynamoType is the type of the value attributevalue's
// encoder writes for it, tag options included (",string" on a number is
// a string; a json.Number a number; [][]byte a binary set; ",unixtime" a
// number of a time only), under whichever tag key names it.
func TestDynamoType(t *testing.T) {
	type moment time.Time
	type typed struct {
		S      string            `dynamodbav:"s"`
		N      int               `dynamodbav:"n"`
		F      *float64          `dynamodbav:"f"`
		NS     int               `dynamodbav:"ns,string"`
		Num    json.Number       `dynamodbav:"num"`
		NumS   json.Number       `dynamodbav:"nums,string"`
		B      []byte            `dynamodbav:"b"`
		A      [2]byte           `dynamodbav:"a"`
		OK     bool              `dynamodbav:"ok"`
		L      []string          `dynamodbav:"l"`
		SS     []string          `dynamodbav:"ss,stringset"`
		NSet   []int             `dynamodbav:"nset,numberset"`
		BS     [][]byte          `dynamodbav:"bs"`
		M      map[string]string `dynamodbav:"m"`
		Set    map[string]bool   `dynamodbav:"set,stringset"`
		T      time.Time         `dynamodbav:"t"`
		U      time.Time         `dynamodbav:"u,unixtime"`
		Moment moment            `dynamodbav:"moment"`
		US     string            `dynamodbav:"us,unixtime"`
		D      time.Duration     `dynamodbav:"d"`
		Inner  struct{ X int }   `dynamodbav:"inner"`
		J      int               `json:"j,string" dynamodbav:"jj"`
	}
	f := 1.5
	v := typed{S: "s", N: 1, F: &f, NS: 2, Num: "3", NumS: "4", B: []byte("b"), A: [2]byte{1, 2}, OK: true, L: []string{"l"},
		SS: []string{"x"}, NSet: []int{1}, BS: [][]byte{[]byte("x")}, M: map[string]string{"k": "v"}, Set: map[string]bool{"k": true},
		T: time.Unix(1, 0), U: time.Unix(1, 0), Moment: moment(time.Unix(1, 0)), US: "x", D: time.Second, Inner: struct{ X int }{1}, J: 5}
	for _, tagKey := range []string{"", "json"} {
		enc := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) { o.TagKey = tagKey })
		av, err := enc.Encode(v)
		require.NoError(t, err)
		written := av.(*types.AttributeValueMemberM).Value
		attrs, _ := ddbitem.Of(reflect.TypeFor[typed](), tagKey)
		require.Len(t, attrs, len(written))
		for _, a := range attrs {
			w, ok := written[a.Name]
			require.True(t, ok, a.Name)
			want := strings.TrimPrefix(reflect.TypeOf(w).Elem().Name(), "AttributeValueMember")
			assert.Equal(t, want, a.DynamoType, "%s under tag key %q", a.Name, tagKey)
		}
		assert.True(t, slices.ContainsFunc(attrs, func(a ddbitem.GoAttr) bool { return a.Name == map[string]string{"": "jj", "json": "j"}[tagKey] }))
	}
	assert.Equal(t, "N", ddbitem.DynamoTypeOf(reflect.TypeFor[*int64]()))
	assert.Equal(t, "M", ddbitem.DynamoTypeOf(reflect.TypeFor[map[string]any]()))
}
