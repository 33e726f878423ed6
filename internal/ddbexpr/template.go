package ddbexpr

import (
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Template is a query's expressions built once per [Shape]: strings and
// names are shared (read-only); only the values map is made per query.
type Template struct {
	KeyCond, Filter, Proj *string
	Names                 map[string]string
	roles                 map[string]valueRole // value placeholder → what it holds
	pkNum, skNum          bool                 // [Shape].PKNum, SKNum
}

type valueRole int

const (
	rolePK valueRole = iota
	roleSK
	roleSKHi
	roleFilter
)

// Stand-ins for the values while building a template; ids cannot contain
// NUL, so no real value equals them.
var roleMarks = map[string]valueRole{"\x00pk": rolePK, "\x00sk": roleSK, "\x00skhi": roleSKHi, "\x00filter": roleFilter}

// Cached returns the template for shape s from cache (per table: Shape
// → *Template), built on first use; labelAttr is the table's sort key, for
// the label filter, keyAttrs the key attributes a projection names.
func Cached(cache *sync.Map, s Shape, labelAttr string, keyAttrs []string) (*Template, error) {
	if tpl, ok := cache.Load(s); ok {
		return tpl.(*Template), nil
	}
	label := ""
	if s.HasFilter {
		label = "\x00filter"
	}
	marks := s // the marks are strings, whatever the keys' types
	marks.PKNum, marks.SKNum = false, false
	b := expression.NewBuilder().WithKeyCondition(marks.KeyCondition("\x00pk", "\x00sk", "\x00skhi"))
	expr, err := Finish(b, labelAttr, label, nil, keyAttrs, s.KeysOnly, nil)
	if err != nil {
		return nil, err
	}
	tpl := &Template{KeyCond: expr.KeyCondition(), Filter: expr.Filter(), Proj: expr.Projection(),
		Names: expr.Names(), roles: map[string]valueRole{}, pkNum: s.PKNum, skNum: s.SKNum}
	for placeholder, v := range expr.Values() {
		str, ok := v.(*types.AttributeValueMemberS)
		if ok {
			tpl.roles[placeholder], ok = roleMarks[str.Value]
		}
		if !ok {
			return nil, fmt.Errorf("adjlist: unexpected expression value %s", placeholder)
		}
	}
	actual, _ := cache.LoadOrStore(s, tpl)
	return actual.(*Template), nil
}

// Values returns a fresh values map for one query.
func (tpl *Template) Values(pk, sk, skHi, filter string) map[string]types.AttributeValue {
	vals := make(map[string]types.AttributeValue, len(tpl.roles))
	// One allocation for every value: every query's hot path.
	avs := make([]types.AttributeValueMemberS, len(tpl.roles))
	i := 0
	for placeholder, role := range tpl.roles {
		v := pk
		switch role {
		case roleSK:
			v = sk
		case roleSKHi:
			v = skHi
		case roleFilter:
			v = filter
		}
		avs[i].Value = v
		vals[placeholder] = &avs[i]
		if role == rolePK && tpl.pkNum || (role == roleSK || role == roleSKHi) && tpl.skNum {
			vals[placeholder] = &types.AttributeValueMemberN{Value: v}
		}
		i++
	}
	return vals
}
