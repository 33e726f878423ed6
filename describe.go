package adjlist

import (
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Describer is a handle that can describe its item shape and access
// patterns for [Describe]: *Node, *Edge and *Collection implement it, and
// [AccessPattern] documents one query.
type Describer interface {
	describe() shape
}

// shape is one item type's key schema and the access patterns it serves.
type shape struct {
	kind     string // "node STU", "edge ENROLL (STU → CRS)", "child PROJ of WS"
	t        *Table
	keys     [4]string // PK, SK, index PK, index SK values with <id> placeholders
	attrs    []string
	patterns []pattern
	err      error
}

type pattern struct {
	what, call, request, condition, index string
}

// Describe writes t's single-table design as Markdown, the way the seeds
// draw it: one table of item types (partition key | sort key | index keys |
// attributes, with ids as <placeholders>) and one of access patterns (which
// call, which DynamoDB request, which key condition, on the table or the
// index). Attributes are read from the data types' dynamodbav tags. It
// makes no request; it returns the first handle error (e.g.
// [ErrInvalidKey]) or write error.
func Describe(w io.Writer, t *Table, handles ...Describer) error {
	if t.err != nil {
		return t.err
	}
	o := t.opts
	shapes := make([]shape, 0, len(handles))
	for _, h := range handles {
		s := h.describe()
		if s.err != nil {
			return s.err
		}
		if s.t != t {
			return fmt.Errorf("%w: %s belongs to table %s, not %s", ErrInvalidOption, s.kind, s.t.name, t.name)
		}
		shapes = append(shapes, s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Table `%s`\n\n", t.name)
	indexCols := t.indexKeysOnItems()
	cols := []string{"item", o.PartitionKey, o.SortKey}
	if indexCols {
		cols = append(cols, o.IndexPartitionKey, o.IndexSortKey)
	}
	row(&b, append(cols, "attributes")...)
	row(&b, strings.Split(strings.Repeat("---,", len(cols)+1), ",")[:len(cols)+1]...)
	for _, s := range shapes {
		if s.kind == "" {
			continue // an access pattern only
		}
		cells := []string{s.kind, code(s.keys[0]), code(s.keys[1])}
		if indexCols {
			cells = append(cells, code(s.keys[2]), code(s.keys[3]))
		}
		row(&b, append(cells, strings.Join(s.attrs, ", "))...)
	}
	if t.sortKeyIndex() && !o.NoIndex {
		fmt.Fprintf(&b, "\nIndex `%s` is keyed on %s (partition) and %s (sort).\n", o.Index, o.SortKey, o.PartitionKey)
	}
	b.WriteString("\n### Access patterns\n\n")
	row(&b, "access pattern", "call", "request", "key condition", "on")
	row(&b, "---", "---", "---", "---", "---")
	for _, s := range shapes {
		for _, p := range s.patterns {
			row(&b, p.what, "`"+p.call+"`", p.request, code(p.condition), p.index)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func row(b *strings.Builder, cells ...string) {
	b.WriteString("| ")
	b.WriteString(strings.Join(cells, " | "))
	b.WriteString(" |\n")
}

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

// attrNames lists the attribute names a data type marshals to, in field
// order, following attributevalue's rules for dynamodbav tags: a tag name
// wins, "-" skips, untagged exported fields use the field name, embedded
// structs are flattened.
func attrNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return []string{"(" + t.String() + ")"}
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("dynamodbav")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-", !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct):
			names = append(names, attrNames(f.Type)...)
			continue
		case name == "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

func (n *Node[N]) describe() shape {
	o := n.t.opts
	pk, sk := n.typ+"#<id>", n.marker
	if sk == "" {
		sk = pk
	}
	cond := fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, pk, o.SortKey, sk)
	return shape{
		kind: "node " + n.typ, t: n.t, err: n.err,
		keys:  [4]string{pk, sk},
		attrs: attrNames(typeOf[N]()),
		patterns: []pattern{
			{"get one " + n.typ, "Node.Get", "GetItem", cond, "table"},
		},
	}
}

func (e *Edge[E]) describe() shape {
	o := e.t.opts
	from, to := e.fromType+"#<from>", e.toType+"#<to>"
	sk := e.prefix + "<to>"
	ipk := to
	if e.shards > 1 {
		ipk = fmt.Sprintf("%s#<shard of from, %d>", to, e.shards)
	}
	s := shape{
		kind: fmt.Sprintf("edge %s (%s → %s)", e.label, e.fromType, e.toType), t: e.t, err: e.err,
		keys:  [4]string{from, sk, ipk, from},
		attrs: attrNames(typeOf[E]()),
	}
	if e.label == "" {
		s.kind = fmt.Sprintf("edge %s → %s", e.fromType, e.toType)
	}
	rev := fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.IndexPartitionKey, ipk, o.IndexSortKey, e.fromType+"#")
	revRequest := "Query"
	if e.shards > 1 {
		revRequest = fmt.Sprintf("%d Queries in parallel, merged", e.shards)
	}
	if e.t.sortKeyIndex() {
		rev = fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.SortKey, sk, o.PartitionKey, e.fromType+"#")
	} else {
		rev += fmt.Sprintf("; filter begins_with(%s, %q)", o.SortKey, e.prefix)
	}
	// Name the label: two edge kinds between the same node types must read
	// apart ("STU's ENROLL edges to CRS", "STU's WAITLIST edges to CRS").
	edges := "edges"
	if e.label != "" {
		edges = e.label + " edges"
	}
	s.patterns = []pattern{
		{fmt.Sprintf("%s's %s to %s (forward)", e.fromType, edges, e.toType), "Edge.From", "Query",
			fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.PartitionKey, from, o.SortKey, e.prefix), "table"},
		{fmt.Sprintf("%s's %s from %s (reverse)", e.toType, edges, e.fromType), "Edge.To", revRequest, rev, o.Index + " (eventually consistent)"},
		{"one edge", "Edge.Get", "GetItem", fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, from, o.SortKey, sk), "table"},
		{fmt.Sprintf("%s item with its %s to %s", e.fromType, edges, e.toType), "LoadNode", "Query", fmt.Sprintf("%s = %q", o.PartitionKey, from), "table"},
	}
	if o.NoIndex {
		s.patterns = append(s.patterns[:1], s.patterns[2:]...)
	}
	if !e.t.indexKeysOnItems() {
		s.keys[2], s.keys[3] = "", ""
	}
	return s
}

func (c *Collection[P, C]) describe() shape {
	o := c.t.opts
	pk := c.parent.typ + "#<id>"
	list := fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.PartitionKey, pk, o.SortKey, c.prefix)
	return shape{
		kind: fmt.Sprintf("child %s of %s", c.childType, c.parent.typ), t: c.t, err: c.err,
		keys:  [4]string{pk, c.prefix + "<child>"},
		attrs: attrNames(typeOf[C]()),
		patterns: []pattern{
			{fmt.Sprintf("%s's %s children, newest first", c.parent.typ, c.childType), "Collection.List(id).Desc()", "Query", list + "; ScanIndexForward=false", "table"},
			{fmt.Sprintf("count %s's %s children", c.parent.typ, c.childType), "Collection.List(id).Count()", "Query (keys only)", list, "table"},
			{"one " + c.childType, "Collection.Get", "GetItem", fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, pk, o.SortKey, c.prefix+"<child>"), "table"},
			{fmt.Sprintf("%s and all its %s children", c.parent.typ, c.childType), "Collection.Load", "Query", fmt.Sprintf("%s = %q", o.PartitionKey, pk), "table"},
		},
	}
}

// AccessPattern documents a query as an access pattern of its own for
// [Describe], e.g. seed 004's "projects created since an id, active only":
//
//	adjlist.AccessPattern("a workspace's active projects since an id",
//		projects.List("<id>").GreaterThanEqual("<since>").
//			Filter(expression.Name("status").Equal(expression.Value("ACTIVE"))))
//
// Describe prints it as one row of its access-pattern table, with the
// exact key condition, filter and projection the query sends (placeholders
// resolved; ids such as "<id>" written as given). An invalid query makes
// Describe return its error.
func AccessPattern[T any](name string, q Query[T]) Describer {
	return patternOnly[T]{name: name, q: q}
}

type patternOnly[T any] struct {
	name string
	q    Query[T]
}

func (p patternOnly[T]) describe() shape {
	q := p.q
	if q.err != nil {
		return shape{t: q.t, err: q.err}
	}
	in := &q.in
	cond := resolve(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if f := aws.ToString(in.FilterExpression); f != "" {
		cond += "; filter " + resolve(f, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	}
	if pr := aws.ToString(in.ProjectionExpression); pr != "" {
		cond += "; projection " + resolve(pr, in.ExpressionAttributeNames, nil)
	}
	if !aws.ToBool(in.ScanIndexForward) {
		cond += "; ScanIndexForward=false"
	}
	request, on := "Query", "table"
	if len(q.shards) > 0 {
		request = fmt.Sprintf("%d Queries in parallel, merged", len(q.shards))
	}
	if in.IndexName != nil {
		on = aws.ToString(in.IndexName) + " (eventually consistent)"
	}
	return shape{t: q.t, patterns: []pattern{{p.name, q.op + "(id)" + q.calls, request, cond, on}}}
}

// placeholderRE matches the expression package's placeholders (#0, :1).
var placeholderRE = regexp.MustCompile(`[#:][0-9]+`)

// resolve writes an expression with its names and values in place of the
// placeholders: (#0 = :0) → (PK = "STU#<id>").
func resolve(expr string, names map[string]string, values map[string]types.AttributeValue) string {
	return placeholderRE.ReplaceAllStringFunc(expr, func(ph string) string {
		if n, ok := names[ph]; ok {
			return n
		}
		switch v := values[ph].(type) {
		case *types.AttributeValueMemberS:
			return strconv.Quote(v.Value)
		case *types.AttributeValueMemberN:
			return v.Value
		case nil:
			return ph
		default:
			return attrText(v)
		}
	})
}
