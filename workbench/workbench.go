// Package workbench writes an adjlist model as a NoSQL Workbench for
// DynamoDB data model, the JSON file its "Import data model" reads:
//
//	{
//	  "ModelName": "school",
//	  "ModelMetadata": {"Author": "adjlist", "DateCreated": "Nov 23, 2026, 04:00 AM", ..., "AWSService": "Amazon DynamoDB", "Version": "3.0"},
//	  "DataModel": [{
//	    "TableName": "school",
//	    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
//	    "NonKeyAttributes": [{"AttributeName": "name", "AttributeType": "S"}, ..., {"AttributeName": "GSI1PK", "AttributeType": "S"}, ...],
//	    "TableFacets": [{"FacetName": "node_STU", "KeyAttributeAlias": {"PartitionKeyAlias": "STU#<id>", "SortKeyAlias": "PROFILE"}, ...}],
//	    "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {...}, "Projection": {"ProjectionType": "ALL"}}],
//	    "TableData": [{"PK": {"S": "STU#a91"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ada"}}],
//	    "DataAccess": {"MySql": {}},
//	    "BillingMode": "PAY_PER_REQUEST"
//	  }]
//	}
//
// as AWS's published sample models lay it out. Each item type is a facet
// (its key templates as the key aliases, its attributes and index keys as
// its attributes, the sample items with its keys as its data); the access
// patterns are listed in the model's description. Sample items are
// optional ([Options].Items), e.g. a Scan of a table the model wrote; they
// are written as given, in DynamoDB JSON, and [Item.AttributeValues]
// turns them back into items to put. A sample item goes into the facet of
// every item type whose table keys it matches, read from the model's
// templates ([adjlist.KeyFormat.Match] on [adjlist.Model].Templates), so
// that keys such as "u#12345#follower" find their facet.
//
// The data model format has no Time to Live setting: the model's Time to
// Live attribute ([adjlist.Model].TimeToLive) is written as a Number
// attribute (NonKeyAttributes, and the facets of the item types that
// expire) and named in the model's Description; the cloudformation
// package and CreateTable enable TTL on it.
//
// NoSQL Workbench models global secondary indexes with one partition and
// at most one sort attribute: local secondary indexes and native indexes
// keyed on several attributes are left out of GlobalSecondaryIndexes (the
// cloudformation package exports them all).
package workbench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/internal/schema"
)

// File is a NoSQL Workbench data model file.
type File struct {
	ModelName     string   `json:"ModelName"`
	ModelMetadata Metadata `json:"ModelMetadata"`
	DataModel     []Table  `json:"DataModel"`
}

// Metadata describes the data model.
type Metadata struct {
	Author           string `json:"Author"`
	DateCreated      string `json:"DateCreated"`
	DateLastModified string `json:"DateLastModified"`
	Description      string `json:"Description"`
	AWSService       string `json:"AWSService"`
	Version          string `json:"Version"`
}

// Table is one table of the data model.
type Table struct {
	TableName              string                 `json:"TableName"`
	KeyAttributes          KeyAttributes          `json:"KeyAttributes"`
	NonKeyAttributes       []Attribute            `json:"NonKeyAttributes"`
	TableFacets            []Facet                `json:"TableFacets,omitempty"`
	GlobalSecondaryIndexes []GlobalSecondaryIndex `json:"GlobalSecondaryIndexes,omitempty"`
	TableData              []Item                 `json:"TableData"`
	DataAccess             DataAccess             `json:"DataAccess"`
	BillingMode            string                 `json:"BillingMode"`
}

// KeyAttributes are a table's or an index's key attributes.
type KeyAttributes struct {
	PartitionKey Attribute  `json:"PartitionKey"`
	SortKey      *Attribute `json:"SortKey,omitempty"`
}

// Attribute is an attribute's name and DynamoDB type (S, N, B, BOOL, SS,
// NS, BS, L, M).
type Attribute struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// GlobalSecondaryIndex is one index of the table.
type GlobalSecondaryIndex struct {
	IndexName     string        `json:"IndexName"`
	KeyAttributes KeyAttributes `json:"KeyAttributes"`
	Projection    Projection    `json:"Projection"`
}

// Projection is an index's projection.
type Projection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// Facet is one item type's view of the table.
type Facet struct {
	FacetName         string            `json:"FacetName"`
	KeyAttributeAlias KeyAttributeAlias `json:"KeyAttributeAlias"`
	TableData         []Item            `json:"TableData"`
	NonKeyAttributes  []string          `json:"NonKeyAttributes"`
	DataAccess        DataAccess        `json:"DataAccess"`
}

// KeyAttributeAlias names a facet's keys: here the item type's key
// templates, "STU#<id>" and "PROFILE".
type KeyAttributeAlias struct {
	PartitionKeyAlias string `json:"PartitionKeyAlias"`
	SortKeyAlias      string `json:"SortKeyAlias"`
}

// DataAccess is NoSQL Workbench's data access setting; the sample models
// carry {"MySql": {}}.
type DataAccess struct {
	MySQL struct{} `json:"MySql"`
}

// Options configures [New] and [Write]. The zero value of each field means
// its default.
type Options struct {
	// ModelName is the data model's name. Default the table name.
	ModelName string
	// Author is the model's author. Default "adjlist".
	Author string
	// Date is when the model was made, written as "Jan 2, 2006, 03:04 PM".
	// Default time.Now().
	Date time.Time
	// Items are the sample items written as TableData (and each in the
	// facet of every item type whose table key templates it matches).
	// Default none.
	Items []map[string]types.AttributeValue
	// Projection is the inverted index's projection, which the model
	// leaves to CreateTable: ALL (default), KEYS_ONLY or INCLUDE with
	// NonKeyAttributes.
	Projection types.ProjectionType
	// NonKeyAttributes lists the attributes the inverted index projects
	// with INCLUDE.
	NonKeyAttributes []string
}

// dateLayout is how NoSQL Workbench writes dates.
const dateLayout = "Jan 2, 2006, 03:04 PM"

// New returns the data model of m: one table with m's key attributes
// (typed as [adjlist.Model].PartitionKeyType and SortKeyType say), the
// data attributes of every item type, every index key attribute and the
// Time to Live attribute as NonKeyAttributes (typed: derived keys S,
// native keys as declared, the Time to Live attribute N unless the data
// declares it), a facet per item type, the global secondary indexes NoSQL
// Workbench can hold with their projections, PAY_PER_REQUEST billing, and
// the sample items. It makes no request. A sample item without the
// table's key attributes of their types (strings, or numbers on a number
// key), an unknown Projection or INCLUDE without NonKeyAttributes is an
// error wrapping adjlist.ErrInvalidOption.
func New(m *adjlist.Model, optFns ...func(*Options)) (*File, error) {
	var o Options
	for _, fn := range optFns {
		if fn == nil {
			return nil, fmt.Errorf("%w: nil option function", adjlist.ErrInvalidOption)
		}
		fn(&o)
	}
	o.ModelName = cmp.Or(o.ModelName, m.Table)
	o.Author = cmp.Or(o.Author, "adjlist")
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
	o.Projection = cmp.Or(o.Projection, types.ProjectionTypeAll)
	if err := schema.CheckProjection(o.Projection, o.NonKeyAttributes); err != nil {
		return nil, fmt.Errorf("workbench: %w: %w", adjlist.ErrInvalidOption, err)
	}
	t := Table{
		TableName: m.Table,
		KeyAttributes: KeyAttributes{
			PartitionKey: Attribute{m.PartitionKey, keyType(m.PartitionKeyType)},
			SortKey:      &Attribute{m.SortKey, keyType(m.SortKeyType)},
		},
		NonKeyAttributes: []Attribute{},
		TableData:        []Item{},
		BillingMode:      string(types.BillingModePayPerRequest),
	}
	seen := map[string]bool{m.PartitionKey: true, m.SortKey: true}
	add := func(name, typ string) {
		if !seen[name] {
			seen[name] = true
			t.NonKeyAttributes = append(t.NonKeyAttributes, Attribute{name, typ})
		}
	}
	// Index key attributes first, typed as the index declares them, so
	// that a data attribute keying a native index gets the index's type.
	indexAttrs := map[string][]string{} // index → its key attribute names
	for _, ix := range m.Indexes {
		pk, sk := keyAttrs(ix, m.PartitionKey)
		for _, a := range slices.Concat(pk, sk) {
			if a.AttributeName != m.PartitionKey {
				add(a.AttributeName, a.AttributeType)
			}
			indexAttrs[ix.Name] = append(indexAttrs[ix.Name], a.AttributeName)
		}
		if ix.Local || len(pk) != 1 || len(sk) > 1 {
			continue // not a GSI NoSQL Workbench can hold
		}
		g := GlobalSecondaryIndex{IndexName: ix.Name, KeyAttributes: KeyAttributes{PartitionKey: pk[0]}}
		if len(sk) == 1 {
			g.KeyAttributes.SortKey = &sk[0]
		}
		proj, attrs := ix.Projection, ix.NonKeyAttributes
		if ix.Name == m.InvertedIndex {
			proj, attrs = o.Projection, o.NonKeyAttributes
		}
		if proj == "" {
			proj = types.ProjectionTypeAll
		}
		if proj == types.ProjectionTypeInclude && len(attrs) == 0 {
			return nil, fmt.Errorf("workbench: %w: index %s: INCLUDE projection without NonKeyAttributes", adjlist.ErrInvalidOption, ix.Name)
		}
		g.Projection = Projection{ProjectionType: string(proj)}
		if proj == types.ProjectionTypeInclude {
			g.Projection.NonKeyAttributes = attrs
		}
		t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, g)
	}
	for _, it := range m.Items {
		for _, a := range it.Attributes {
			add(a.Name, a.Type)
		}
	}
	if m.TimeToLive != "" {
		add(m.TimeToLive, string(types.ScalarAttributeTypeN)) // epoch seconds, unless the data declares it
	}
	for i, av := range o.Items {
		item := NewItem(av)
		for _, k := range [...]struct {
			name string
			typ  types.ScalarAttributeType
		}{{m.PartitionKey, m.PartitionKeyType}, {m.SortKey, m.SortKeyType}} {
			if _, ok := keyText(av[k.name], k.typ); !ok {
				return nil, fmt.Errorf("workbench: %w: sample item %d has no %s key attribute %s", adjlist.ErrInvalidOption, i, keyType(k.typ), k.name)
			}
		}
		t.TableData = append(t.TableData, item)
	}
	for i, it := range m.Items {
		f := Facet{
			FacetName:         facetName(it),
			KeyAttributeAlias: KeyAttributeAlias{PartitionKeyAlias: it.PartitionKey, SortKeyAlias: it.SortKey},
			TableData:         []Item{},
			NonKeyAttributes:  []string{},
		}
		for _, a := range it.Attributes {
			f.NonKeyAttributes = append(f.NonKeyAttributes, a.Name)
		}
		if it.Expiry != "" && !slices.Contains(f.NonKeyAttributes, it.Expiry) {
			f.NonKeyAttributes = append(f.NonKeyAttributes, it.Expiry)
		}
		for _, k := range it.Indexes {
			for _, a := range indexAttrs[k.Index] {
				if a != m.PartitionKey && a != m.SortKey && !slices.Contains(f.NonKeyAttributes, a) {
					f.NonKeyAttributes = append(f.NonKeyAttributes, a)
				}
			}
		}
		if i < len(m.Templates) {
			tpl := m.Templates[i]
			for _, item := range t.TableData {
				if matches(item, tpl.PartitionKey) && matches(item, tpl.SortKey) {
					f.TableData = append(f.TableData, item)
				}
			}
		}
		t.TableFacets = append(t.TableFacets, f)
	}
	return &File{
		ModelName: o.ModelName,
		ModelMetadata: Metadata{
			Author:           o.Author,
			DateCreated:      o.Date.Format(dateLayout),
			DateLastModified: o.Date.Format(dateLayout),
			Description:      description(m),
			AWSService:       "Amazon DynamoDB",
			Version:          "3.0",
		},
		DataModel: []Table{t},
	}, nil
}

// Write writes the data model of m ([New]) to w as indented JSON. It
// returns New's error or the write error.
func Write(w io.Writer, m *adjlist.Model, optFns ...func(*Options)) error {
	f, err := New(m, optFns...)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}

// keyAttrs are an index's partition and sort key attributes with their
// types; a local index's partition key is the table's.
func keyAttrs(ix adjlist.Index, tablePK string) (pk, sk []Attribute) {
	partition, sort := ix.KeySchema(tablePK)
	for _, a := range partition {
		pk = append(pk, Attribute{a.Name, string(a.Type)})
	}
	for _, a := range sort {
		sk = append(sk, Attribute{a.Name, string(a.Type)})
	}
	return pk, sk
}

// facetName names an item type's facet with letters, digits and '_':
// "node_STU", "edge_ENROLL_STU_CRS", "child_PROJ_of_WS",
// "counter_ENROLLED".
func facetName(it adjlist.ItemType) string {
	var parts []string
	switch it.Kind {
	case "edge":
		parts = []string{"edge", it.Type, it.From, it.To}
	case "child":
		parts = []string{"child", it.Type, "of", it.From}
	default:
		parts = []string{it.Kind, it.Type}
	}
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, strings.Join(parts, "_"))
}

// matches reports whether item's attribute f.Attribute, a string or a
// number, is a value of f.
func matches(item Item, f adjlist.KeyFormat) bool {
	var text string
	switch v := item[f.Attribute].AttributeValue.(type) {
	case *types.AttributeValueMemberS:
		text = v.Value
	case *types.AttributeValueMemberN:
		text = v.Value
	default:
		return false
	}
	return f.Match(text)
}

// keyType is the Workbench attribute type of a table key of type typ:
// "S" for "".
func keyType(typ types.ScalarAttributeType) string {
	if typ == "" {
		return string(types.ScalarAttributeTypeS)
	}
	return string(typ)
}

// keyText is the text of av, a table key of type typ: a string, or a
// number on an N key.
func keyText(av types.AttributeValue, typ types.ScalarAttributeType) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, typ != types.ScalarAttributeTypeN
	case *types.AttributeValueMemberN:
		return v.Value, typ == types.ScalarAttributeTypeN
	}
	return "", false
}

// description is the model's Description: where it comes from, its Time
// to Live attribute, and its access patterns, one per line.
func description(m *adjlist.Model) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Single-table design of %s, exported by adjlist (DescribeModel).", m.Table)
	if m.TimeToLive != "" {
		fmt.Fprintf(&b, "\nTime to Live: %s (epoch seconds).", m.TimeToLive)
	}
	b.WriteString("\nAccess patterns:")
	for _, p := range m.AccessPatterns {
		fmt.Fprintf(&b, "\n- %s: %s, %s %s on %s", p.Name, p.Call, p.Request, p.KeyCondition, p.On)
	}
	return b.String()
}
