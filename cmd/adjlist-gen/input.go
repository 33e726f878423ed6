package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/schema"
)

// maxItemSize is DynamoDB's limit on one item, 400 KB, as adjlist.ItemSize
// counts it.
const maxItemSize = 400 * 1024

// errBadInput marks a model the command refuses: not JSON, no DataModel,
// an item without its table keys, a key or value DynamoDB or adjlist
// cannot hold. main exits with status 2 on it, having written nothing.
var errBadInput = errors.New("bad input")

// badInput is an errBadInput with its reason.
func badInput(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadInput, fmt.Sprintf(format, args...))
}

// wbFile is the part of a NoSQL Workbench data model file the command
// reads.
type wbFile struct {
	ModelName     string `json:"ModelName"`
	ModelMetadata struct {
		Description string `json:"Description"`
	} `json:"ModelMetadata"`
	DataModel []wbTable `json:"DataModel"`
}

type wbTable struct {
	TableName        string    `json:"TableName"`
	KeyAttributes    wbKeys    `json:"KeyAttributes"`
	NonKeyAttributes []wbAttr  `json:"NonKeyAttributes"`
	TableFacets      []wbFacet `json:"TableFacets"`
	GSIs             []wbIndex `json:"GlobalSecondaryIndexes"`
	LSIs             []wbIndex `json:"LocalSecondaryIndexes"`
	TableData        []rawItem `json:"TableData"`
	// live holds the items read from a live table (-table), checked as
	// TableData is; each is "item N" in messages, N its place in key
	// order. liveNotes are what reading the table noted.
	live      []map[string]types.AttributeValue
	liveNotes []string
}

type wbKeys struct {
	PartitionKey *wbAttr `json:"PartitionKey"`
	SortKey      *wbAttr `json:"SortKey"`
}

type wbAttr struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

type wbFacet struct {
	FacetName         string `json:"FacetName"`
	KeyAttributeAlias struct {
		PartitionKeyAlias string `json:"PartitionKeyAlias"`
		SortKeyAlias      string `json:"SortKeyAlias"`
	} `json:"KeyAttributeAlias"`
	NonKeyAttributes []string  `json:"NonKeyAttributes"`
	TableData        []rawItem `json:"TableData"`
}

type wbIndex struct {
	IndexName     string `json:"IndexName"`
	KeyAttributes wbKeys `json:"KeyAttributes"`
	Projection    struct {
		ProjectionType   string   `json:"ProjectionType"`
		NonKeyAttributes []string `json:"NonKeyAttributes"`
	} `json:"Projection"`
}

// rawItem is one sample item, parsed later so that an error names it.
type rawItem json.RawMessage

func (r *rawItem) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// model is a parsed and checked data model.
type model struct {
	name        string
	description string
	tables      []*table
}

// table is one DataModel entry: its keys, indexes and items, and what is
// inferred from them.
type table struct {
	name   string
	pk, sk string // key attribute names
	// pkN and skN mark a number (N) partition or sort key; the items'
	// pk and sk hold its text as DynamoDB stores it.
	pkN, skN  bool
	attrOrder []string  // attribute names in the order the model lists them
	indexes   []*index  // in the model's order
	items     []*item   // TableData and facets' items, each once, in order
	facets    []wbFacet // as given
	noItems   []string  // facets without items: described, not modelled
	entities  []*entity
	// undeclared are item types whose keys could be another's: adjlist
	// refuses both on one table, so they are described, not declared.
	undeclared []*entity
	notes      []string // ambiguities and changes, for stderr and comments
	// derived holds the attributes of derived-key indexes: written by
	// adjlist from templates, never data.
	derived map[string]bool
	// followers[w] is every segment that follows the segment w in the
	// table's keys, to tell an id after a prefix from a literal.
	followers map[string]map[string]bool
	// valueText holds key segments that read as values somewhere in the
	// table: after a kind's name ("alice" of USER#alice), or an element
	// of a set attribute. Elsewhere in the keys they are values too.
	valueText map[string]bool
	// valueKey marks the items whose whole partition (0) or sort key (1)
	// is a value, though it has no digit: one of several words ("ranked",
	// "casual") in one place of items that hold the same attributes.
	valueKey map[*item][2]bool
	skel     map[*item]string // each item's skeleton, once valueKey is found
}

// index is one global or local secondary index.
type index struct {
	name           string
	local          bool   // a local secondary index: pk is the table's
	pk, sk         string // key attributes; sk "" for none
	pkType, skType string // S or N
	projection     string // ALL, KEYS_ONLY or INCLUDE
	nonKey         []string
	dropped        []string // key attributes left out of nonKey
	derived        bool     // keyed on attributes adjlist writes from templates
	why            string   // why it is native or derived
}

// item is one sample item.
type item struct {
	where  string // "TableData[3]", "facet Items TableData[0]"
	av     map[string]types.AttributeValue
	pk, sk string
	facets []int // the facets that list it, by their place in the model
}

// parseModel reads a Workbench data model and checks everything the
// generated code relies on: a bad model is an errBadInput.
func parseModel(src []byte) (*model, error) {
	var f wbFile
	// A byte-order mark, which some editors write, is no JSON.
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&f); err != nil {
		return nil, badInput("not a NoSQL Workbench data model (JSON): %v", err)
	}
	if dec.More() {
		return nil, badInput("not a NoSQL Workbench data model: more than one JSON value")
	}
	return modelOf(&f)
}

// modelOf checks the data model f, read from a file or a live table.
func modelOf(f *wbFile) (*model, error) {
	if len(f.DataModel) == 0 {
		return nil, badInput("no DataModel: the file has no table")
	}
	m := &model{name: f.ModelName, description: f.ModelMetadata.Description}
	names := map[string]bool{}
	for i := range f.DataModel {
		t, err := parseTable(&f.DataModel[i])
		if err != nil {
			return nil, err
		}
		if names[t.name] {
			return nil, badInput("table %s is in DataModel twice", t.name)
		}
		names[t.name] = true
		m.tables = append(m.tables, t)
	}
	return m, nil
}

func parseTable(w *wbTable) (*table, error) {
	switch {
	case w.TableName == "":
		return nil, badInput("a DataModel entry has no TableName")
	case !ddbitem.ValidIndexName(w.TableName): // tables follow the indexes' rule
		return nil, badInput("table name %q: DynamoDB table names are 3-255 letters, digits, '_', '-' or '.'", w.TableName)
	}
	t := &table{name: w.TableName, facets: w.TableFacets, derived: map[string]bool{}, notes: slices.Clone(w.liveNotes)}
	in := func(format string, args ...any) error {
		return badInput("table %s: %s", t.name, fmt.Sprintf(format, args...))
	}
	k := w.KeyAttributes
	switch {
	case k.PartitionKey == nil || k.PartitionKey.AttributeName == "":
		return nil, in("no partition key")
	case k.SortKey == nil || k.SortKey.AttributeName == "":
		return nil, in("no sort key: adjlist models tables with a partition and a sort key")
	case k.PartitionKey.AttributeType != "S" && k.PartitionKey.AttributeType != "N":
		return nil, in("partition key %s is of type %q: adjlist models string and number table keys only", k.PartitionKey.AttributeName, k.PartitionKey.AttributeType)
	case k.SortKey.AttributeType != "S" && k.SortKey.AttributeType != "N":
		return nil, in("sort key %s is of type %q: adjlist models string and number table keys only", k.SortKey.AttributeName, k.SortKey.AttributeType)
	case k.PartitionKey.AttributeName == k.SortKey.AttributeName:
		return nil, in("partition and sort key are both %s", k.PartitionKey.AttributeName)
	}
	t.pk, t.sk = k.PartitionKey.AttributeName, k.SortKey.AttributeName
	t.pkN, t.skN = k.PartitionKey.AttributeType == "N", k.SortKey.AttributeType == "N"
	for _, a := range w.NonKeyAttributes {
		if a.AttributeName != "" && !slices.Contains(t.attrOrder, a.AttributeName) {
			t.attrOrder = append(t.attrOrder, a.AttributeName)
		}
	}
	for _, f := range w.TableFacets {
		for _, a := range f.NonKeyAttributes {
			if !slices.Contains(t.attrOrder, a) {
				t.attrOrder = append(t.attrOrder, a)
			}
		}
	}
	if err := t.parseIndexes(w.GSIs, false); err != nil {
		return nil, err
	}
	if err := t.parseIndexes(w.LSIs, true); err != nil {
		return nil, err
	}
	byKey := map[[2]string]*item{}
	add := func(where string, r rawItem, facet int) error {
		it, err := t.parseItem(where, r)
		if err != nil {
			return err
		}
		key := [2]string{it.pk, it.sk}
		if old, ok := byKey[key]; ok {
			if !ddbitem.Equal(old.av, it.av) {
				return in("%s and %s have the same keys (%s = %q, %s = %q) and differ: a table holds one item per key", old.where, it.where, t.pk, it.pk, t.sk, it.sk)
			}
			if facet >= 0 && !slices.Contains(old.facets, facet) {
				old.facets = append(old.facets, facet)
			}
			return nil
		}
		if facet >= 0 {
			it.facets = []int{facet}
		}
		byKey[key] = it
		t.items = append(t.items, it)
		return nil
	}
	for i, r := range w.TableData {
		if err := add(fmt.Sprintf("TableData[%d]", i), r, -1); err != nil {
			return nil, err
		}
	}
	for i, av := range w.live {
		it, err := t.checkItem(fmt.Sprintf("item %d", i), av)
		if err != nil {
			return nil, err
		}
		t.items = append(t.items, it) // a table holds one item per key
	}
	for fi, f := range w.TableFacets {
		if f.FacetName == "" {
			return nil, in("a facet has no FacetName")
		}
		if len(f.TableData) == 0 {
			t.noItems = append(t.noItems, f.FacetName)
		}
		for i, r := range f.TableData {
			if err := add(fmt.Sprintf("facet %s TableData[%d]", f.FacetName, i), r, fi); err != nil {
				return nil, err
			}
		}
	}
	for _, ix := range t.indexes {
		for _, a := range []struct{ name, key string }{{ix.pk, "partition"}, {ix.sk, "sort"}} {
			if a.name == "" || len(t.items) == 0 || slices.ContainsFunc(t.items, func(it *item) bool { _, ok := it.av[a.name]; return ok }) {
				continue
			}
			t.note("index %s: no sample item has %s, its %s key, so the index holds none of them (is the name misspelt?)", ix.name, a.name, a.key)
		}
		for _, it := range t.items {
			for _, a := range []struct{ name, typ string }{{ix.pk, ix.pkType}, {ix.sk, ix.skType}} {
				v, ok := it.av[a.name]
				if a.name == "" || !ok {
					continue
				}
				if got := avType(v); got != a.typ {
					return nil, in("%s: %s is %s, and keys index %s as %s: DynamoDB refuses the item", it.where, a.name, got, ix.name, a.typ)
				}
				if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == "" {
					return nil, in("%s: %s, a key of index %s, is empty: DynamoDB refuses the item", it.where, a.name, ix.name)
				}
				limit := keycodec.MaxPartitionKeyLen
				if a.name == ix.sk {
					limit = keycodec.MaxSortKeyLen
				}
				if s, ok := v.(*types.AttributeValueMemberS); ok && len(s.Value) > limit {
					return nil, in("%s: %s, a key of index %s, is %d bytes, DynamoDB allows %d", it.where, a.name, ix.name, len(s.Value), limit)
				}
			}
		}
	}
	return t, nil
}

// keyType is the type of the table key attribute a: "N" for a number
// key, else "S".
func (t *table) keyType(a string) string {
	if a == t.pk && t.pkN || a == t.sk && t.skN {
		return "N"
	}
	return "S"
}

// parseIndexes reads the model's global (local false) or local secondary
// indexes. A local index's partition key is the table's, which the model
// may name or leave out; it has a sort key.
func (t *table) parseIndexes(decls []wbIndex, local bool) error {
	in := func(format string, args ...any) error {
		return badInput("table %s: %s", t.name, fmt.Sprintf(format, args...))
	}
	if local && len(decls) > schema.MaxLocalIndexes {
		return in("%d local secondary indexes, DynamoDB allows %d", len(decls), schema.MaxLocalIndexes)
	}
	for _, g := range decls {
		ix := &index{name: g.IndexName, local: local, projection: g.Projection.ProjectionType}
		k := g.KeyAttributes
		switch {
		case !ddbitem.ValidIndexName(ix.name):
			return in("index name %q: DynamoDB index names are 3-255 letters, digits, '_', '-' or '.'", ix.name)
		case slices.ContainsFunc(t.indexes, func(o *index) bool { return o.name == ix.name }):
			return in("index %s is declared twice", ix.name)
		case local && k.PartitionKey != nil && k.PartitionKey.AttributeName != "" && k.PartitionKey.AttributeName != t.pk:
			return in("local index %s has the partition key %s: a local secondary index has the table's, %s", ix.name, k.PartitionKey.AttributeName, t.pk)
		case local && (k.SortKey == nil || k.SortKey.AttributeName == ""):
			return in("local index %s has no sort key: a local secondary index has a sort key of its own", ix.name)
		case local:
			k.PartitionKey = &wbAttr{AttributeName: t.pk, AttributeType: t.keyType(t.pk)}
		case k.PartitionKey == nil || k.PartitionKey.AttributeName == "":
			return in("index %s has no partition key", ix.name)
		}
		ix.pk, ix.pkType = k.PartitionKey.AttributeName, k.PartitionKey.AttributeType
		if k.SortKey != nil && k.SortKey.AttributeName != "" {
			ix.sk, ix.skType = k.SortKey.AttributeName, k.SortKey.AttributeType
		}
		for _, a := range []struct{ name, typ string }{{ix.pk, ix.pkType}, {ix.sk, ix.skType}} {
			if a.name != "" && a.typ != "S" && a.typ != "N" {
				return in("index %s's key %s is of type %q: adjlist models string and number index keys only", ix.name, a.name, a.typ)
			}
			if (a.name == t.pk || a.name == t.sk) && a.typ != t.keyType(a.name) {
				return in("index %s declares the table key %s as %s", ix.name, a.name, a.typ)
			}
		}
		if ix.pk == ix.sk {
			return in("index %s has %s as both its partition and sort key", ix.name, ix.pk)
		}
		switch ix.projection {
		case "":
			ix.projection = "ALL"
		case "ALL", "KEYS_ONLY":
		case "INCLUDE":
			// The table's and the index's keys are always projected;
			// DynamoDB need not be told, so they are left out.
			for _, a := range g.Projection.NonKeyAttributes {
				if slices.Contains([]string{t.pk, t.sk, ix.pk, ix.sk}, a) {
					ix.dropped = append(ix.dropped, a)
				} else if !slices.Contains(ix.nonKey, a) {
					ix.nonKey = append(ix.nonKey, a)
				}
			}
			if len(ix.nonKey) == 0 {
				ix.projection = "KEYS_ONLY"
			}
		default:
			return in("index %s has projection %q: want ALL, KEYS_ONLY or INCLUDE", ix.name, ix.projection)
		}
		t.indexes = append(t.indexes, ix)
	}
	return nil
}

// parseItem reads one sample item in DynamoDB JSON and checks it as
// DynamoDB and adjlist would: its table keys non-empty strings within
// DynamoDB's limits without control characters, numbers valid (written
// as DynamoDB stores them), sets non-empty without duplicates.
func (t *table) parseItem(where string, r rawItem) (*item, error) {
	in := func(format string, args ...any) error {
		return badInput("table %s, %s: %s", t.name, where, fmt.Sprintf(format, args...))
	}
	if bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
		return nil, in("null item")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(r, &raw); err != nil {
		return nil, in("not an item in DynamoDB JSON: %v", err)
	}
	av := map[string]types.AttributeValue{}
	for _, name := range sortedKeys(raw) {
		var wv workbench.Value
		if err := json.Unmarshal(raw[name], &wv); err != nil {
			var b bytes.Buffer
			if json.Compact(&b, raw[name]) != nil || b.Len() > 120 {
				b.Reset()
				b.Write(bytes.TrimSpace(raw[name])[:min(120, len(bytes.TrimSpace(raw[name])))])
				b.WriteString("...")
			}
			return nil, in("not an item in DynamoDB JSON: attribute %s is %s, not an attribute value ({\"S\": ...}, {\"M\": {...}}, ...)", name, b.String())
		}
		v := wv.AttributeValue
		if v == nil {
			return nil, in("attribute %s is null, not a DynamoDB JSON value", name)
		}
		if nullFalse(raw[name]) {
			// The parser reads it as NULL true: it is refused here.
			return nil, in(`attribute %s holds {"NULL": false}: DynamoDB takes NULL only as true`, name)
		}
		av[name] = v
	}
	return t.checkItem(where, av)
}

// checkItem checks one item's attribute values av as DynamoDB and adjlist
// would (see parseItem) and returns it, its numbers as DynamoDB stores
// them.
func (t *table) checkItem(where string, av map[string]types.AttributeValue) (*item, error) {
	in := func(format string, args ...any) error {
		return badInput("table %s, %s: %s", t.name, where, fmt.Sprintf(format, args...))
	}
	it := &item{where: where, av: make(map[string]types.AttributeValue, len(av))}
	for _, name := range sortedKeys(av) {
		v := av[name]
		if name == "" {
			return nil, in("an attribute has an empty name")
		}
		c, err := checkValue(v)
		if err != nil {
			return nil, in("attribute %s: %v", name, err)
		}
		if !ddbitem.EqualValue(v, c) {
			t.note("%s: attribute %s holds numbers DynamoDB stores otherwise (%s as %s): the test compares the items as DynamoDB stores them", where, name, itemJSON(map[string]types.AttributeValue{name: v}), itemJSON(map[string]types.AttributeValue{name: c}))
		}
		it.av[name] = c
	}
	for _, k := range []struct {
		attr  string
		into  *string
		limit int
	}{{t.pk, &it.pk, keycodec.MaxPartitionKeyLen}, {t.sk, &it.sk, keycodec.MaxSortKeyLen}} {
		v, ok := it.av[k.attr]
		if !ok {
			return nil, in("no %s: every item needs the table's keys", k.attr)
		}
		if t.keyType(k.attr) == "N" {
			n, ok := v.(*types.AttributeValueMemberN)
			if !ok {
				return nil, in("%s is %s: the table declares it a number (N)", k.attr, avType(v))
			}
			*k.into = n.Value // as DynamoDB stores it: checkValue made it so
			continue
		}
		s, ok := v.(*types.AttributeValueMemberS)
		switch {
		case !ok:
			return nil, in("%s is %s: the table's keys are strings", k.attr, avType(v))
		case s.Value == "":
			return nil, in("%s is empty", k.attr)
		case len(s.Value) > k.limit:
			return nil, in("%s is %d bytes, DynamoDB allows %d", k.attr, len(s.Value), k.limit)
		case hasControl(s.Value):
			return nil, in("%s %q holds a control character, which adjlist refuses in keys", k.attr, s.Value)
		}
		*k.into = s.Value
	}
	if n := adjlist.ItemSize(it.av); n > maxItemSize {
		largest := ""
		for _, name := range sortedKeys(it.av) {
			if largest == "" || adjlist.ItemSize(adjlist.Item{name: it.av[name]}) > adjlist.ItemSize(adjlist.Item{largest: it.av[largest]}) {
				largest = name
			}
		}
		return nil, in("%d bytes (the largest attribute: %s), DynamoDB allows %d (400 KB) in an item", n, largest, maxItemSize)
	}
	return it, nil
}

// maxNesting is how deep DynamoDB nests maps and lists in an item: 32
// levels, the item being the first (found on DynamoDB Local: 31 maps
// inside one another in an attribute are taken, 32 refused).
const maxNesting = 32

// checkValue checks one attribute value and returns it with its numbers
// as DynamoDB stores them.
func checkValue(v types.AttributeValue) (types.AttributeValue, error) { return checkNested(v, 2) }

// checkNested is checkValue of a value at level (the item is level 1, its
// attributes level 2).
func checkNested(v types.AttributeValue, level int) (types.AttributeValue, error) {
	switch v.(type) {
	case *types.AttributeValueMemberL, *types.AttributeValueMemberM:
		if level > maxNesting {
			return nil, fmt.Errorf("maps and lists nested deeper than DynamoDB's %d levels (the item is the first): DynamoDB refuses it", maxNesting)
		}
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		if !utf8.ValidString(v.Value) {
			return nil, errors.New("string is not valid UTF-8")
		}
		return v, nil
	case *types.AttributeValueMemberN:
		c, err := canonicalNumber(v.Value)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberN{Value: c}, nil
	case *types.AttributeValueMemberSS:
		if err := checkSet(v.Value); err != nil {
			return nil, err
		}
		return v, nil
	case *types.AttributeValueMemberNS:
		out := make([]string, len(v.Value))
		for i, n := range v.Value {
			c, err := canonicalNumber(n)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		if err := checkSet(out); err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberNS{Value: out}, nil
	case *types.AttributeValueMemberBS:
		s := make([]string, len(v.Value))
		for i, b := range v.Value {
			s[i] = string(b)
		}
		if err := checkSet(s); err != nil {
			return nil, err
		}
		return v, nil
	case *types.AttributeValueMemberL:
		out := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			c, err := checkNested(e, level+1)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = c
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case *types.AttributeValueMemberM:
		out := make(map[string]types.AttributeValue, len(v.Value))
		for _, k := range sortedKeys(v.Value) {
			if k == "" {
				return nil, errors.New("a map holds an empty attribute name: DynamoDB refuses it")
			}
			c, err := checkNested(v.Value[k], level+1)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = c
		}
		return &types.AttributeValueMemberM{Value: out}, nil
	case *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return v, nil
	case nil:
		return nil, errors.New("null, not a DynamoDB JSON value")
	}
	return nil, fmt.Errorf("unknown attribute value %T", v)
}

// nullFalse reports whether the DynamoDB JSON value raw holds
// {"NULL": false} at any depth (a map's attribute values are objects, so
// a "NULL" member that is false is the type's).
func nullFalse(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			if b, ok := v["NULL"].(bool); ok && !b {
				return true
			}
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// checkSet refuses what DynamoDB refuses in a set: none, or one twice.
func checkSet(s []string) error {
	if len(s) == 0 {
		return errors.New("empty set: DynamoDB refuses it")
	}
	seen := map[string]bool{}
	for _, e := range s {
		if seen[e] {
			return fmt.Errorf("set holds %q twice: DynamoDB refuses it", e)
		}
		seen[e] = true
	}
	return nil
}

// canonicalNumber is the number s as DynamoDB stores and returns it:
// without leading or trailing zeros, exponent or "+", "-0" as "0", e.g.
// "1.50" → "1.5", "1e3" → "1000". More than 38 significant digits, a
// magnitude out of DynamoDB's range, or text that is no number, is an
// error, as in DynamoDB.
func canonicalNumber(s string) (string, error) {
	bad := fmt.Errorf("%q is not a number", s)
	t := s
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg, t = t[0] == '-', t[1:]
	}
	mant, exp := t, 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || i+1 == len(t) || t[i+1] == ' ' {
			return "", bad
		}
		mant, exp = t[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Count(mant, ".") > 1 {
		return "", bad
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return "", bad
		}
	}
	point := len(intPart) + exp // the decimal point is after digits[:point]
	trimmed := strings.TrimLeft(digits, "0")
	point -= len(digits) - len(trimmed)
	digits = strings.TrimRight(trimmed, "0")
	if digits == "" {
		return "0", nil
	}
	if len(digits) > 38 {
		return "", fmt.Errorf("%q has more than 38 significant digits: DynamoDB refuses it", s)
	}
	// The number is 0.digits × 10^point: DynamoDB holds magnitudes from
	// 1E-130 to 9.99...E+125.
	if point > 126 || point < -129 {
		return "", fmt.Errorf("%q is out of DynamoDB's range (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125): DynamoDB refuses it", s)
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(digits)
	case point >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	}
	return b.String(), nil
}

// hasControl reports whether s holds a C0 or C1 control character or DEL,
// which adjlist refuses in ids.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// avType is the DynamoDB type of v: S, N, B, BOOL, NULL, L, M, SS, NS, BS.
func avType(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return "?"
}

// keyText is the text a key holds for v: a string, or a number; ok is
// false for any other value.
func keyText(v types.AttributeValue) (string, bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, v.Value != ""
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
