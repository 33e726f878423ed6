// A Go type's attributes ([Of]) by attributevalue's rules, so that what
// adjlist says of them (Describe, key fields, Verify) is what a write
// writes.

package ddbitem

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
)

// DefaultTagKey is attributevalue's tag key, read under any TagKey
// (which overrides it).
const DefaultTagKey = "dynamodbav"

// GoAttr is one attribute a struct type marshals to.
type GoAttr struct {
	Name string
	Type reflect.Type // the struct field's
	// DynamoType is what a set value marshals to: "S", "N", "B", "BOOL",
	// "SS", "NS", "BS", "L" or "M".
	DynamoType string
}

var (
	marshalerType   = reflect.TypeFor[attributevalue.Marshaler]()
	unmarshalerType = reflect.TypeFor[attributevalue.Unmarshaler]()
)

// Of lists the attributes t (or the struct it points to) marshals to, in
// field order, under tag key tagKey ("": the default), by attributevalue's
// (encoding/json's) rules. open: t holds attributes it does not name (a
// map, an interface, its own (un)marshaler).
func Of(t reflect.Type, tagKey string) (attrs []GoAttr, open bool) {
	for {
		if t.Implements(marshalerType) || t.Implements(unmarshalerType) ||
			t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(unmarshalerType)) {
			open = true
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map, reflect.Interface:
		return nil, true
	case reflect.Struct:
	default:
		return nil, open
	}
	fields := enumFields(t, tagKey)
	// Per name, the one dominant field, as attributevalue's visibleFields.
	slices.SortStableFunc(fields, func(a, b field) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(len(a.index), len(b.index)))
	})
	var visible []field
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name && len(fields[j].index) == len(fields[i].index) {
			j++
		}
		tagged, win := 0, i
		for k := i; k < j; k++ {
			if fields[k].tag.name != "" {
				tagged, win = tagged+1, k
			}
		}
		if tagged == 1 || j-i == 1 {
			visible = append(visible, fields[win])
		}
		for j < len(fields) && fields[j].name == fields[i].name {
			j++ // deeper fields of the name are hidden
		}
		i = j
	}
	slices.SortFunc(visible, func(a, b field) int { return slices.Compare(a.index, b.index) })
	for _, f := range visible {
		attrs = append(attrs, GoAttr{Name: f.name, Type: f.typ, DynamoType: dynamoType(f.typ, f.tag)})
	}
	return attrs, open
}

type field struct {
	name  string
	index []int // its path from the walked struct, as reflect.Value.FieldByIndex
	typ   reflect.Type
	tag   tag
}

// enumFields walks t's fields as attributevalue's enumFields: breadth
// first, each struct type once at its shallowest depth; one embedded
// twice at a depth names its fields twice, so they hide each other.
func enumFields(t reflect.Type, tagKey string) []field {
	type walked struct {
		typ   reflect.Type
		index []int
	}
	var out []field
	visited := map[reflect.Type]bool{}
	next := []walked{{typ: t}}
	nextCount := map[reflect.Type]int{}
	for len(next) > 0 {
		current, count := next, nextCount
		next, nextCount = nil, map[reflect.Type]int{}
		for _, w := range current {
			if visited[w.typ] {
				continue
			}
			visited[w.typ] = true
			for i := range w.typ.NumField() {
				sf := w.typ.Field(i)
				if !sf.IsExported() && !sf.Anonymous {
					continue
				}
				g := parseTag(sf.Tag, DefaultTagKey, tag{})
				if tagKey != "" && tagKey != DefaultTagKey {
					g = parseTag(sf.Tag, tagKey, g)
				}
				if g.ignore {
					continue
				}
				index := append(slices.Clip(w.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous && g.name == "" && ft.Kind() == reflect.Struct {
					if nextCount[ft]++; nextCount[ft] == 1 {
						next = append(next, walked{typ: ft, index: index})
					}
					continue
				}
				f := field{name: cmp.Or(g.name, sf.Name), index: index, typ: sf.Type, tag: g}
				out = append(out, f)
				if count[w.typ] > 1 {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

type tag struct {
	name                   string
	ignore                 bool
	asString               bool // ",string": a number as a string
	unixTime               bool
	strSet, numSet, binSet bool
}

// parseTag reads tag key over g as attributevalue does: a present tag
// sets the name and "-", and adds its options; an absent one changes
// nothing.
func parseTag(st reflect.StructTag, key string, g tag) tag {
	s := st.Get(key)
	if s == "" {
		return g
	}
	parts := strings.Split(s, ",")
	g.name, g.ignore = parts[0], parts[0] == "-"
	if g.ignore {
		g.name = ""
	}
	for _, o := range parts[1:] {
		switch o {
		case "string":
			g.asString = true
		case "unixtime":
			g.unixTime = true
		case "stringset":
			g.strSet = true
		case "numberset":
			g.numSet = true
		case "binaryset":
			g.binSet = true
		}
	}
	return g
}
