package main

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// gkind is the kind of Go type an attribute gets.
type gkind int

const (
	kString    gkind = iota // string (S)
	kInt                    // int64 (N, integers)
	kFloat                  // float64 (N that float64 writes back as it reads)
	kNumber                 // attributevalue.Number (any other N, kept as text)
	kBool                   // bool (BOOL)
	kBytes                  // []byte (B)
	kStringSet              // []string `stringset` (SS)
	kIntSet                 // []int64 `numberset` (NS)
	kFloatSet               // []float64 `numberset`
	kNumberSet              // []attributevalue.Number `numberset`
	kBytesSet               // [][]byte `binaryset` (BS)
	kList                   // []elem (L)
	kMap                    // map[string]elem (M with keys that are no field names)
	kStruct                 // a struct (M)
	kValue                  // Value: the attribute value as it is (mixed types, NULL)
)

// goType is the Go type of an attribute.
type goType struct {
	kind gkind
	elem *goType     // kList, kMap
	st   *structType // kStruct
	rt   reflect.Type
}

// structType is a generated struct: an entity's data, or a map
// attribute's.
type structType struct {
	name   string
	holds  string // what a map attribute's struct holds: "Invoice's Detail"
	fields []*field
}

// field is one field of a generated struct.
type field struct {
	goName  string
	attr    string
	t       *goType
	ptr     bool // optional, and some item holds its zero value
	omit    bool // optional: omitempty
	keyOnly bool
	comment string
}

// typeData gives e its Go type: a field per attribute kept only in its
// keys, then one per attribute its items store, typed by the values seen,
// each checked by decoding and encoding every item as adjlist will: a
// field that does not give its items back as they are becomes a Value.
func (t *table) typeData(e *entity) error {
	st := &structType{name: e.goName}
	used := map[string]bool{}
	for _, v := range e.vars {
		if v.stored {
			continue
		}
		kind := kString
		if v.num {
			kind = numberKind(v.vals, kInt, kFloat, kNumber)
		}
		st.fields = append(st.fields, &field{goName: uniqueGo(goName(v.name), used), attr: v.name, t: &goType{kind: kind}, keyOnly: true})
	}
	for _, a := range t.storedAttrs(e) {
		if a == "-" || strings.Contains(a, ",") {
			return badInput("table %s, item type %s: attribute %q cannot be named in a dynamodbav tag, so no Go struct holds it", t.name, e.name, a)
		}
		var vals []types.AttributeValue
		for _, it := range e.items {
			if v, ok := it.av[a]; ok {
				vals = append(vals, v)
			}
		}
		f := &field{goName: uniqueGo(goName(a), used), attr: a}
		f.t = inferType(vals, e.goName+f.goName, e.goName+"'s "+a)
		setOptional(f, vals, len(e.items))
		st.fields = append(st.fields, f)
	}
	e.st = st
	for range len(st.fields) + 1 {
		bad, err := t.roundTrip(e)
		if err != nil {
			return err
		}
		if len(bad) == 0 {
			return nil
		}
		for _, f := range st.fields {
			if slices.Contains(bad, f.attr) {
				if f.t.kind == kValue {
					return badInput("table %s, item type %s: attribute %s does not come back as it was through any Go type (the SDK's attributevalue decodes a NULL into an optional field as no value)", t.name, e.name, f.attr)
				}
				f.t = &goType{kind: kValue}
				f.ptr = f.omit
				e.notes = append(e.notes, fmt.Sprintf("%s: attribute %s is a Value, kept as the items hold it: no Go type of its values gives them back as they are", e.name, f.attr))
			}
		}
	}
	return badInput("table %s, item type %s: no Go type holds its items as they are", t.name, e.name)
}

// setOptional makes f optional (omitempty) when some of n items lack it,
// and a pointer when one that has it holds its type's zero value, which
// omitempty would drop.
func setOptional(f *field, vals []types.AttributeValue, n int) {
	if len(vals) == n {
		return
	}
	f.omit = true
	switch f.t.kind {
	case kStruct, kValue:
		f.ptr = true
		return
	}
	for _, v := range vals {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			f.ptr = f.ptr || v.Value == ""
		case *types.AttributeValueMemberN:
			f.ptr = f.ptr || v.Value == "0"
		case *types.AttributeValueMemberBOOL:
			f.ptr = f.ptr || !v.Value
		}
	}
}

// inferType types the values of one attribute; name names a struct it
// needs, path says what it holds ("Invoice's Detail").
func inferType(vals []types.AttributeValue, name, path string) *goType {
	if len(vals) == 0 {
		return &goType{kind: kString}
	}
	typ := avType(vals[0])
	for _, v := range vals[1:] {
		if avType(v) != typ {
			return &goType{kind: kValue}
		}
	}
	switch typ {
	case "S":
		return &goType{kind: kString}
	case "B":
		return &goType{kind: kBytes}
	case "BOOL":
		return &goType{kind: kBool}
	case "N":
		var nums []string
		for _, v := range vals {
			nums = append(nums, v.(*types.AttributeValueMemberN).Value)
		}
		return &goType{kind: numberKind(nums, kInt, kFloat, kNumber)}
	case "SS":
		return &goType{kind: kStringSet}
	case "BS":
		return &goType{kind: kBytesSet}
	case "NS":
		var nums []string
		for _, v := range vals {
			nums = append(nums, v.(*types.AttributeValueMemberNS).Value...)
		}
		return &goType{kind: numberKind(nums, kIntSet, kFloatSet, kNumberSet)}
	case "L":
		var elems []types.AttributeValue
		for _, v := range vals {
			elems = append(elems, v.(*types.AttributeValueMemberL).Value...)
		}
		elem := inferType(elems, singular(name), "each element of "+path)
		switch elem.kind {
		case kStringSet, kIntSet, kFloatSet, kNumberSet, kBytesSet:
			elem = &goType{kind: kValue} // a list element has no set tag
		}
		return &goType{kind: kList, elem: elem}
	case "M":
		var maps []map[string]types.AttributeValue
		keys := map[string]bool{}
		for _, v := range vals {
			m := v.(*types.AttributeValueMemberM).Value
			maps = append(maps, m)
			for k := range m {
				keys[k] = true
			}
		}
		if !fieldNames(keys) {
			var elems []types.AttributeValue
			for _, m := range maps {
				for _, k := range sortedKeys(m) {
					elems = append(elems, m[k])
				}
			}
			elem := inferType(elems, name+"Value", "each value of "+path)
			if elem.kind >= kStringSet && elem.kind <= kBytesSet {
				elem = &goType{kind: kValue}
			}
			return &goType{kind: kMap, elem: elem}
		}
		st := &structType{name: name, holds: path}
		used := map[string]bool{}
		for _, k := range sortedKeys(keys) {
			var fv []types.AttributeValue
			for _, m := range maps {
				if v, ok := m[k]; ok {
					fv = append(fv, v)
				}
			}
			f := &field{goName: uniqueGo(goName(k), used), attr: k}
			f.t = inferType(fv, name+f.goName, name+"'s "+k)
			setOptional(f, fv, len(maps))
			st.fields = append(st.fields, f)
		}
		return &goType{kind: kStruct, st: st}
	}
	return &goType{kind: kValue} // NULL
}

// fieldNames reports whether map keys can be struct fields: names a
// dynamodbav tag can hold, few enough to read as a record's.
func fieldNames(keys map[string]bool) bool {
	if len(keys) == 0 || len(keys) > 40 {
		return false
	}
	for k := range keys {
		if k == "" || k == "-" || strings.ContainsAny(k, ",\"`\\") || strings.IndexFunc(k, unicode.IsControl) >= 0 {
			return false
		}
	}
	return true
}

// numberKind picks int64 for integers that fit, float64 for numbers
// float64 writes back as DynamoDB stores them, else attributevalue.Number.
func numberKind(nums []string, ints, floats, texts gkind) gkind {
	allInt, allFloat := true, true
	for _, n := range nums {
		if i, err := strconv.ParseInt(n, 10, 64); err != nil || strconv.FormatInt(i, 10) != n {
			allInt = false
		}
		f, err := strconv.ParseFloat(n, 64)
		if err != nil || math.IsInf(f, 0) || strconv.FormatFloat(f, 'f', -1, 64) != n {
			allFloat = false
		}
	}
	switch {
	case allInt:
		return ints
	case allFloat:
		return floats
	}
	return texts
}

// singular names a list's element type: "Payments" → "Payment",
// "FriendList" → "FriendListItem".
func singular(name string) string {
	if strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss") && len(name) > 3 {
		return strings.TrimSuffix(name, "s")
	}
	return name + "Item"
}

// rawValue mirrors the generated Value type for the round trip.
type rawValue struct{ types.AttributeValue }

func (v rawValue) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if v.AttributeValue == nil {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return v.AttributeValue, nil
}

func (v *rawValue) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	v.AttributeValue = av
	return nil
}

// reflectType is the Go type g stands for, built for the round trip.
func (g *goType) reflectType() reflect.Type {
	if g.rt != nil {
		return g.rt
	}
	switch g.kind {
	case kString:
		g.rt = reflect.TypeFor[string]()
	case kInt:
		g.rt = reflect.TypeFor[int64]()
	case kFloat:
		g.rt = reflect.TypeFor[float64]()
	case kNumber:
		g.rt = reflect.TypeFor[attributevalue.Number]()
	case kBool:
		g.rt = reflect.TypeFor[bool]()
	case kBytes:
		g.rt = reflect.TypeFor[[]byte]()
	case kStringSet:
		g.rt = reflect.TypeFor[[]string]()
	case kIntSet:
		g.rt = reflect.TypeFor[[]int64]()
	case kFloatSet:
		g.rt = reflect.TypeFor[[]float64]()
	case kNumberSet:
		g.rt = reflect.TypeFor[[]attributevalue.Number]()
	case kBytesSet:
		g.rt = reflect.TypeFor[[][]byte]()
	case kList:
		g.rt = reflect.SliceOf(g.elem.reflectType())
	case kMap:
		g.rt = reflect.MapOf(reflect.TypeFor[string](), g.elem.reflectType())
	case kValue:
		g.rt = reflect.TypeFor[rawValue]()
	case kStruct:
		g.rt = g.st.reflectType()
	}
	return g.rt
}

func (st *structType) reflectType() reflect.Type {
	var fs []reflect.StructField
	for _, f := range st.fields {
		rt := f.t.reflectType()
		if f.ptr {
			rt = reflect.PointerTo(rt)
		}
		fs = append(fs, reflect.StructField{Name: f.goName, Type: rt, Tag: reflect.StructTag(`dynamodbav:` + strconv.Quote(f.tag()))})
	}
	return reflect.StructOf(fs)
}

// tag is f's dynamodbav tag.
func (f *field) tag() string {
	opts := []string{f.attr}
	if f.omit {
		opts = append(opts, "omitempty")
	}
	switch f.t.kind {
	case kStringSet:
		opts = append(opts, "stringset")
	case kIntSet, kFloatSet, kNumberSet:
		opts = append(opts, "numberset")
	case kBytesSet:
		opts = append(opts, "binaryset")
	}
	return strings.Join(opts, ",")
}

// roundTrip decodes each of e's items into e's Go type and encodes it
// again, as adjlist's reads and writes do with the SDK's attributevalue,
// and returns the attributes that do not come back as they were.
func (t *table) roundTrip(e *entity) ([]string, error) {
	for _, f := range e.st.fields {
		f.t.reset()
	}
	rt := e.st.reflectType()
	keyOnly := map[string]bool{}
	for _, f := range e.st.fields {
		keyOnly[f.attr] = f.keyOnly
	}
	var bad []string
	for _, it := range e.items {
		data := map[string]types.AttributeValue{}
		for k, v := range it.av {
			if k != t.pk && k != t.sk && !t.derived[k] {
				data[k] = v
			}
		}
		// Decoded whole, keys and all, as adjlist decodes an item.
		v := reflect.New(rt)
		if err := attributevalue.UnmarshalMap(it.av, v.Interface()); err != nil {
			return nil, fmt.Errorf("table %s, %s: decoding into %s: %w", t.name, it.where, e.goName, err)
		}
		out, err := attributevalue.MarshalMap(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("table %s, %s: encoding %s: %w", t.name, it.where, e.goName, err)
		}
		for k := range out {
			if keyOnly[k] {
				delete(out, k)
			}
		}
		for _, k := range sortedKeys(mergeKeys(data, out)) {
			a, b := data[k], out[k]
			if (a == nil) != (b == nil) || a != nil && !ddbitem.EqualValue(a, b) {
				if !slices.Contains(bad, k) {
					bad = append(bad, k)
				}
			}
		}
	}
	return bad, nil
}

func (g *goType) reset() {
	g.rt = nil
	if g.elem != nil {
		g.elem.reset()
	}
	if g.st != nil {
		for _, f := range g.st.fields {
			f.t.reset()
		}
	}
}

func mergeKeys(a, b map[string]types.AttributeValue) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// initialisms are written in capitals in Go names.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "uri": "URI", "ttl": "TTL", "api": "API", "http": "HTTP",
	"json": "JSON", "uuid": "UUID", "sku": "SKU", "vin": "VIN", "ip": "IP", "sql": "SQL", "aws": "AWS",
	"arn": "ARN", "gsi": "GSI", "lsi": "LSI", "pk": "PK", "sk": "SK", "db": "DB", "html": "HTML",
	"utc": "UTC", "xml": "XML", "s3": "S3", "ui": "UI", "crs": "CRS", "stu": "STU",
}

// goName makes s an exported Go name: "comm_id" → "CommID", "imageUrl"
// → "ImageURL", "GSI1-PK" → "GSI1PK", "gsi2WarehouseID" →
// "GSI2WarehouseID", "ORDER_ITEM" → "OrderItem", "follower#" →
// "Follower".
func goName(s string) string {
	var b strings.Builder
	ws := words(s)
	// In a name written in capitals (edge_LIVES_IN_PERSON_PLACE) a short
	// word with a vowel is a word too: LivesInPersonPlace.
	capitals := slices.ContainsFunc(ws, func(w string) bool {
		return len(w) >= 4 && strings.ToUpper(w) == w && strings.ToLower(w) != w && !strings.ContainsAny(w, "0123456789") && initialisms[strings.ToLower(w)] == ""
	})
	for _, w := range ws {
		if up, ok := initialisms[strings.ToLower(w)]; ok {
			b.WriteString(up)
			continue
		}
		letters := strings.TrimRight(w, "0123456789")
		if up, ok := initialisms[strings.ToLower(letters)]; ok && letters != w {
			b.WriteString(up + w[len(letters):]) // "gsi2" → "GSI2"
			continue
		}
		if capitals && letters == w && len(w) <= 3 && strings.ToUpper(w) == w && strings.ContainsAny(w, "AEIOU") {
			w = strings.ToLower(w)
		}
		if len(letters) >= 4 && strings.ToUpper(letters) == letters && strings.ToLower(letters) != letters && !strings.ContainsAny(letters, "0123456789") {
			// A word in capitals is a name, not an initialism: "BRAND" →
			// "Brand", "OFFER2" → "Offer2"; a short one ("USA") stays.
			w = strings.ToLower(w)
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	out := b.String()
	switch {
	case out == "":
		return "Field"
	case out[0] >= '0' && out[0] <= '9':
		return "X" + out
	}
	return out
}

// words splits s at characters other than ASCII letters and digits, and
// where a lower-case letter meets an upper-case one ("imageUrl" → image,
// Url; "URLPath" → URL, Path).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		isAlnum := r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
		if !isAlnum {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			if unicode.IsLower(prev) || unicode.IsDigit(prev) && len(cur) > 1 && unicode.IsLower(cur[len(cur)-2]) ||
				unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// uniqueGo returns name, or name with a number, not in used.
func uniqueGo(name string, used map[string]bool) string {
	out := name
	for i := 2; used[out]; i++ {
		out = fmt.Sprintf("%s%d", name, i)
	}
	used[out] = true
	return out
}
