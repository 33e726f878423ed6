// A Go type's attributes ([Of], [GoAttr]): read by the rules of the SDK's
// attributevalue encoder, so that what adjlist says of a data type's
// attributes (the model Describe draws, an Entity's key fields, the
// attributes Verify finds undeclared) is what a write writes.

package ddbitem

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
)

// DefaultTagKey is attributevalue's struct tag key: read under any
// TagKey, which overrides it.
const DefaultTagKey = "dynamodbav"

// GoAttr is one attribute a struct type marshals to.
type GoAttr struct {
	// Name is the attribute's name.
	Name string
	// Type is the Go type of the struct field that holds it.
	Type reflect.Type
	// DynamoType is the DynamoDB type a set value of the field marshals
	// to: "S", "N", "B", "BOOL", "SS", "NS", "BS", "L" or "M".
	DynamoType string
}

var (
	marshalerType   = reflect.TypeFor[attributevalue.Marshaler]()
	unmarshalerType = reflect.TypeFor[attributevalue.Unmarshaler]()
)

// Of lists the attributes a value of type t (or of the struct t points
// to) marshals to, in field order, under struct tag key tagKey ("" for
// attributevalue's default), by attributevalue's rules (encoding/json's:
// tags, "-", embedded structs flattened, the shallowest of one name wins).
// open is true for a type that holds attributes it does not name: a map,
// an interface, or one with its own (un)marshaler.
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

// field is one named struct field met by enumFields.
type field struct {
	name  string
	index []int // its path from the walked struct, as reflect.Value.FieldByIndex
	typ   reflect.Type
	tag   tag
}

// enumFields walks the fields of struct t and its embedded structs, as
// attributevalue's enumFields: breadth first, each struct type once, at
// its shallowest depth; one embedded twice at a depth names its fields
// twice there, so that they hide each other.
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

// tag is what a field's struct tags say of its attribute.
type tag struct {
	name                   string
	ignore                 bool
	asString               bool // ",string": a number as a string
	unixTime               bool
	strSet, numSet, binSet bool
}

// parseTag reads a field's tag under key over g as attributevalue does: a
// tag present sets the name ("" when it gives none) and whether the field
// is skipped ("-"), and adds its options; an absent tag leaves g as it
// was.
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
