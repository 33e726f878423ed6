package walks

import (
	"maps"
	"reflect"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DataCheck is a Type.Check for a type whose data is a V: it decodes the
// data of an item whose keys are known to be of the type into a V, as the
// type's handle does (unmarshal, the table's decoding of an item's data),
// and returns the error. item is copied first when decoding into V may
// modify it (unmarshal removes the keys before decoding into anything but
// a struct); a struct V is decoded with dec, which passes over the keys,
// into a zeroed value of a pool, for Verify meets many.
func DataCheck[V any](dec *attributevalue.Decoder, unmarshal func(item Item, out any) error) func(Item) error {
	if reflect.TypeFor[V]().Kind() != reflect.Struct {
		return func(item Item) error {
			var v V
			return unmarshal(maps.Clone(item), &v)
		}
	}
	type scratch struct {
		v  V
		av types.AttributeValueMemberM
	}
	pool := sync.Pool{New: func() any { return new(scratch) }}
	return func(item Item) error {
		s := pool.Get().(*scratch)
		var zero V
		s.v, s.av.Value = zero, item
		err := dec.Decode(&s.av, &s.v)
		s.v, s.av.Value = zero, nil
		pool.Put(s)
		return err
	}
}
